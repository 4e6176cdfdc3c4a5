// placeholder until the first file lands
