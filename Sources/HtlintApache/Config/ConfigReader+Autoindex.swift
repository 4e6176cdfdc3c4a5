import HtlintRegex
import HtlintSyntax

/// mod_autoindex's `IndexOptions` and `IndexOrderDefault`, refused where its add_opts and
/// set_default_order refuse them (a 500 for the `.htaccess`; recorded:
/// dirindex-indexoptions-checked). Only the listing's charset changes an answer.
extension ConfigReader {
    /// Keywords that set one option bit, lower-cased.
    private static let indexOptionKeywords: Set<String> = [
        "fancyindexing", "foldersfirst", "htmltable", "iconsarelinks", "ignorecase", "ignoreclient",
        "scanhtmltitles", "suppresscolumnsorting", "suppressdescription", "suppresshtmlpreamble",
        "suppressicon", "suppresslastmodified", "suppresssize", "suppressrules", "trackmodified",
        "versionsort", "xhtml", "showforbidden", "addaltclass", "useolddateformat",
    ]

    mutating func indexOptions(_ line: DirectiveLine, into block: inout ConfigBlock) {
        // TAKE_ARGV: every word, but an empty last one ends the list unread (`IndexOptions ""`).
        var words = line.words
        if words.last?.value.isEmpty == true { words.removeLast() }
        for word in words {
            var w = Substring(word.value)
            let action = w.first == "+" || w.first == "-" ? w.removeFirst() : nil
            let lower = w.asciiLowercased()
            func refuse(_ message: String) { error(ConfigCode.badArguments, message, word.range) }
            if Self.indexOptionKeywords.contains(lower) {
                // A plain keyword sets the bit; `+`/`-` only adjust the inherited ones.
                if action == nil { block.indexOptionsOthers = true }
            } else if lower == "none" {
                if action != nil { return refuse("Cannot combine '+' or '-' with 'None' keyword") }
                block.indexOptionsNone = true
                block.indexOptionsOthers = false
            } else if lower == "iconwidth" || lower == "iconheight" {
                continue
            } else if lower.hasBytePrefix("iconwidth=") || lower.hasBytePrefix("iconheight=") {
                if action == "-" { return refuse("Cannot combine '-' with \(lower.hasBytePrefix("iconwidth") ? "IconWidth" : "IconHeight")=n") }
            } else if lower == "namewidth" || lower == "descriptionwidth" {
                let name = lower == "namewidth" ? "NameWidth" : "DescriptionWidth"
                if action != "-" { return refuse("\(name) with no value may only appear as '-\(name)'") }
            } else if lower.hasBytePrefix("namewidth=") || lower.hasBytePrefix("descriptionwidth=") {
                let name = lower.hasBytePrefix("namewidth=") ? "NameWidth" : "DescriptionWidth"
                if action == "-" { return refuse("Cannot combine '-' with \(name)=n") }
                let value = lower.dropFirst(name.count + 1)
                let least = name == "NameWidth" ? 5 : 12
                let width = atoi(String(value))
                if value.first != "*", width != 0, width < least {
                    return refuse("\(name) value must be greater than \(least)")
                }
            } else if lower.hasBytePrefix("type=") {
                continue
            } else if lower.hasBytePrefix("charset=") {
                block.indexCharset = String(w.dropFirst("charset=".count))
            } else {
                return refuse("Invalid directory indexing option")
            }
        }
        if block.indexOptionsNone && block.indexOptionsOthers {
            error(ConfigCode.badArguments, "Cannot combine other IndexOptions keywords with 'None'", line.node.argumentsRange)
        }
    }

    mutating func indexOrderDefault(_ line: DirectiveLine) {
        guard arity(line, 2...2, "IndexOrderDefault takes two arguments, {Ascending,Descending} {Name,Size,Description,Date}") else { return }
        if !["ascending", "descending"].contains(line.words[0].value.asciiLowercased()) {
            error(ConfigCode.badArguments, "First keyword must be 'Ascending' or 'Descending'", line.words[0].range)
        } else if !["name", "date", "size", "description"].contains(line.words[1].value.asciiLowercased()) {
            error(ConfigCode.badArguments, "Second keyword must be 'Name', 'Date', 'Size', or 'Description'", line.words[1].range)
        }
    }
}
