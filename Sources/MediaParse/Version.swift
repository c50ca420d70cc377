/// What build of the parser this is: the package's version and the grammar set built into it.
///
/// Two binaries of the same version may still parse differently when their grammars differ (a grammar author's
/// build, a later commit): `grammarSetHash` tells them apart, so a bug report or a regression baseline can
/// name exactly what produced a result.
public enum MediaParseVersion {
    /// The package's version (semantic versioning; raised with every change of the contract or the grammars
    /// that lands).
    public static let package = "0.10.0"

    /// FNV-1a over every built-in grammar file (path and text, in path order), as 16 hexadecimal digits;
    /// computed when the package is built (GrammarEmbedder), so that no process start pays for it.
    public static let grammarSetHash: String = embeddedGrammarSetHash

    /// One line for `--version`: "0.10.0 (grammars 1a2b3c4d5e6f7a8b, 296 files)".
    public static var description: String {
        "\(package) (grammars \(grammarSetHash), \(embeddedGrammarFiles.count) files)"
    }
}
