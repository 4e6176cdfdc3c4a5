/// An `AllowOverride` line inside a `<Directory>` block, as written (core docs, AllowOverride).
public struct AllowOverrideSetting: Sendable, Equatable {
    /// The classes it grants (`All` is all five; `None` is empty).
    public var categories: Set<OverrideCategory>
    /// The options `.htaccess` may set, when the line says `Options` (nil: left as inherited).
    public var options: Set<String>?
    /// `Nonfatal=Override|All`: a forbidden directive is skipped with a warning.
    public var nonfatalOverride = false
    /// `Nonfatal=Unknown|All`: an unknown directive is skipped with a warning.
    public var nonfatalUnknown = false
}

/// What a `.htaccess` may contain in one directory: the nearest `AllowOverride` and
/// `AllowOverrideList` of the `<Directory>` sections from `/` down (each inherited separately).
public struct AllowedOverrides: Sendable, Equatable {
    public var categories: Set<OverrideCategory>
    /// Option bits `Options` may touch (Apache's `override_opts`), see `optionBits`.
    public var options: Set<String>
    /// Lower-cased directive names from `AllowOverrideList`.
    public var list: Set<String> = []
    public var nonfatalOverride = false
    public var nonfatalUnknown = false

    public static let classes: Set<OverrideCategory> = [.fileInfo, .indexes, .options, .authConfig, .limit]
    /// `OPT_ALL`: what a bare `AllowOverride Options` permits (not MultiViews, not SymLinksIfOwnerMatch).
    static let optAll: Set<String> = ["indexes", "includes", "includesexec", "followsymlinks", "execcgi"]
    /// Apache's starting value of `override_opts`: every option.
    static let everyOption = optAll.union(["symlinksifownermatch", "multiviews"])

    /// `AllowOverride All` with every option: what the oracle harness sets for the document root.
    public static let all = AllowedOverrides(categories: classes, options: everyOption)
    /// Debian's `<Directory />`: the file is not even opened.
    public static let none = AllowedOverrides(categories: [], options: everyOption)

    /// With no class, no listed directive and no Nonfatal bit Apache does not open the file at
    /// all: ap_directory_walk tests the whole `override` word, where the NONFATAL_* bits live too.
    public var readsFiles: Bool { !categories.isEmpty || !list.isEmpty || nonfatalOverride || nonfatalUnknown }

    /// Whether a directive (or section) needing `category` may appear; `.any` (OR_ALL) needs
    /// any class at all. `AllowOverrideList` names are allowed whatever their class.
    public func permits(_ category: OverrideCategory, name: String) -> Bool {
        switch category {
        case .serverOnly, .globalOnly, .configOnly: return false
        case .any: if !categories.isEmpty { return true }
        default: if categories.contains(category) { return true }
        }
        return list.contains(name.asciiLowercased())
    }

    /// Applies one `<Directory>` block's settings over the inherited ones.
    public mutating func apply(_ block: ConfigBlock) {
        if let s = block.allowOverride {
            categories = s.categories
            if let o = s.options { options = o }
            nonfatalOverride = s.nonfatalOverride
            nonfatalUnknown = s.nonfatalUnknown
        }
        if let l = block.allowOverrideList { list = l }
    }

    /// The option bits one `Options` word stands for (lower-cased; nil when unknown). A word
    /// is allowed only if all its bits are (`Includes` also needs exec, `All` needs OPT_ALL).
    static func optionBits(_ word: String) -> Set<String>? {
        switch word {
        case "indexes": ["indexes"]
        case "includes": ["includes", "includesexec"]
        case "includesnoexec": ["includes"]
        case "followsymlinks": ["followsymlinks"]
        case "symlinksifownermatch": ["symlinksifownermatch"]
        case "execcgi": ["execcgi"]
        case "multiviews": ["multiviews"]
        case "runscripts": ["multiviews", "execcgi"]
        case "none": []
        case "all": optAll
        default: nil
        }
    }

    /// A word `AllowOverride` refuses, with set_override's message.
    struct IllegalWord: Error {
        var message: String
        init(word: String) { message = "Illegal override option \(word)" }
        init(message: String) { self.message = message }
    }

    /// Parses the words of an `AllowOverride` line.
    static func parse(_ words: [String]) -> Result<AllowOverrideSetting, IllegalWord> {
        var s = AllowOverrideSetting(categories: [], options: nil)
        for w in words {
            // set_override cuts the word at its first `=` byte, set_allow_opts the list at `,`
            // bytes (a combining mark after either is no part of it).
            let equals = w.firstIndex(ofByte: UInt8(ascii: "="))
            let name = equals.map { w[..<$0] } ?? w[...]
            let key = name.asciiLowercased()
            let value = equals.map { String(bytesAfter(w, $0)) }
            switch key {
            // set_override assigns the whole `override` word here, Nonfatal bits included.
            case "none": s.categories = []; s.nonfatalOverride = false; s.nonfatalUnknown = false
            case "all": s.categories = classes; s.nonfatalOverride = false; s.nonfatalUnknown = false
            case "fileinfo": s.categories.insert(.fileInfo)
            case "indexes": s.categories.insert(.indexes)
            case "authconfig": s.categories.insert(.authConfig)
            case "limit": s.categories.insert(.limit)
            case "options":
                s.categories.insert(.options)
                guard let value else { s.options = optAll; continue }
                var bits: Set<String> = []
                for o in byteSplit(value[...], UInt8(ascii: ","), omittingEmpty: true) {
                    guard let b = optionBits(o.asciiLowercased()) else { return .failure(IllegalWord(word: String(o))) }
                    bits.formUnion(b)
                }
                s.options = bits
            case "nonfatal":
                switch value?.asciiLowercased() {
                case "override": s.nonfatalOverride = true
                case "unknown": s.nonfatalUnknown = true
                case "all": s.nonfatalOverride = true; s.nonfatalUnknown = true
                case nil: return .failure(IllegalWord(message: "=Override, =Unknown or =All expected after \(name)"))
                default: break   // set_override ignores any other value (even an empty one).
                }
            default: return .failure(IllegalWord(word: w))
            }
        }
        return .success(s)
    }
}
