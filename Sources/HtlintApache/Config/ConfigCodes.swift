/// Codes for errors Apache itself finds while reading a file (HT1xx, after the syntax codes).
/// Each makes Apache answer 500 for every request whose directory walk reads the file.
public enum ConfigCode {
    /// `Invalid command '…'`: unknown or misspelled directive, or its module is not loaded.
    public static let unknownDirective = "HT110"
    /// `… not allowed here`: server-only directive or section in `.htaccess`, or forbidden by AllowOverride.
    public static let notAllowedHere = "HT111"
    /// Wrong number or form of arguments.
    public static let badArguments = "HT112"
    /// Unknown or malformed `RewriteRule`/`RewriteCond` flag, bad flag delimiters.
    public static let badFlag = "HT113"
    /// A regular expression PCRE2 cannot compile.
    public static let badRegex = "HT114"
    /// An `ap_expr` expression Apache cannot parse (`<If>`, `expr` conditions).
    public static let badExpression = "HT115"
    /// A section Apache cannot read: unclosed, or missing its argument.
    public static let badSection = "HT116"
    /// Directive accepted by Apache but ignored or suspicious (warning level).
    public static let ignored = "HT117"
    /// An `Error` directive that is read: Apache stops with its message.
    public static let errorDirective = "HT118"
}
