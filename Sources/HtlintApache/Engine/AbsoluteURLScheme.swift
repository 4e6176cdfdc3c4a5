extension RewriteRule {
    /// mod_rewrite's scheme prefix (`https://`, `mailto:`, …) when `text` starts with one: such a
    /// substitution is an absolute URL and gets no directory prefix (Origin+Host `absoluteSchemes`).
    public static func absoluteScheme(of text: String) -> String? { absoluteURLScheme(text) }
}
