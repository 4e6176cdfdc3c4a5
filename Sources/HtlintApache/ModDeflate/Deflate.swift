/// mod_deflate's output filter as far as headers go (recorded: header-deflate-vary-and-encoding).
extension Origin {
    /// DEFLATE runs where `SetOutputFilter`, `AddOutputFilter` (an extension of the file) or
    /// `AddOutputFilterByType` (the type without parameters, on a 200) names it, on a main request's
    /// answer other than 204, without `no-gzip` (nor `gzip-only-text/html` for another type),
    /// not already encoded, whose body is more than
    /// 68 bytes (sizeof(gzip_header) + VALIDATION_SIZE + 50: smaller ones pass untouched;
    /// a listing's or a module's generated page is larger). It
    /// then merges `Vary: Accept-Encoding` (before mod_headers' filter) and, when the request
    /// accepts `gzip` (a q of 0 refuses it), sends `Content-Encoding: gzip`.
    func deflateHeaders(_ r: RequestRecord, status: Int, contentType: String?, config: MergedConfig?,
                        chain: RequestChain) -> [HTTPHeader] {
        // Most configurations name no output filter: that is checked first, without binding
        // (a copy of the whole configuration).
        guard config?.outputFilters != nil || config?.mime?.outputFilters.isEmpty == false
                || config?.outputFiltersByType.isEmpty == false else { return [] }
        guard let config, site.modules.contains("deflate"), status != 204, !r.isSubrequest,
              r.envValue("no-gzip") == nil, let f = r.filename, bodyOverGzipOverhead(r, f) else { return [] }
        let bare = contentType.map { beforeSemicolonByte($0).trimmingCharacters(in: .whitespaces).asciiLowercased() }
        var filters = config.outputFilters ?? []
        for part in byteSplit(lastPathComponent(f)[...], UInt8(ascii: ".")).dropFirst() {
            filters += config.mime?.outputFilters[PathKey(part.asciiLowercased())] ?? []
        }
        // AddOutputFilterByType's filters run in mod_filter's harness, which drops itself from an
        // answer whose status is not 200 unless `filter-errordocs` is set (recorded:
        // errordoc-server-info-page-keeps-own-type).
        if let bare, status == 200 || r.envValue("filter-errordocs") != nil { filters += config.outputFiltersByType[bare] ?? [] }
        guard filters.contains(where: { $0.asciiUppercased() == "DEFLATE" }) else { return [] }
        // `gzip-only-text/html` (=1, as BrowserMatch sets it) keeps other types uncompressed.
        if !(contentType ?? "").hasBytePrefix("text/html"), r.envValue("gzip-only-text/html") == "1" { return [] }
        if let e = config.mime?.encoding(forPath: f), e.asciiLowercased() != "identity" { return [] }
        var out = [HTTPHeader("Vary", "Accept-Encoding")]
        let accepts = chain.request.headers.filter { equalsIgnoringASCIICase($0.name, "Accept-Encoding") }.map(\.value).joined(separator: ",")
        for token in byteSplit(accepts[...], UInt8(ascii: ","), omittingEmpty: true) {
            let parts = byteSplit(token, UInt8(ascii: ";"), omittingEmpty: true).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, name.asciiLowercased() == "gzip" else { continue }
            let q = parts.dropFirst().first { $0.asciiLowercased().hasBytePrefix("q=") }.map { Double(dropLeadingBytes($0, 2)) ?? 1 } ?? 1
            if q > 0 {
                out.append(HTTPHeader("Content-Encoding", "gzip"))
                chain.compressed = true
            }
            break
        }
        chain.note(.note, "mod_deflate: DEFLATE adds Vary: Accept-Encoding\(out.count > 1 ? " and compresses (gzip accepted)" : "")")
        return out
    }
}

extension Origin {
    /// Whether the body DEFLATE sees is over 68 bytes (recorded: header-deflate-generated-pages):
    /// a file by its size; mod_autoindex's listing (GET: a HEAD is answered before it is
    /// written, with no body), mod_status' and mod_info's pages (written for HEAD too) always are.
    /// The default handler answers OPTIONS with headers only (recorded: header-deflate-options-empty-body).
    private func bodyOverGzipOverhead(_ r: RequestRecord, _ f: String) -> Bool {
        if r.generatedType != nil { return true }
        if r.method == "OPTIONS" { return false }
        if r.listed { return r.method != "HEAD" }
        if case .file(let size)? = site.files.stat(f) { return size > 68 }
        return false
    }
}

extension ConfigReader {
    /// `SetOutputFilter`, `AddOutputFilter` and `AddOutputFilterByType`: filter lists (`;`).
    /// Split at `;` bytes, as ap_getword splits them (a `;` a combining mark follows is still one).
    static func filterNames(_ value: String) -> [String] { byteSplit(value[...], UInt8(ascii: ";"), omittingEmpty: true).map(String.init) }
}
