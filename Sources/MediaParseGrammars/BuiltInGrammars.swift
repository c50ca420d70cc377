import Foundation

/// The built-in grammars of every locale, compiled when the package is built (the CompileGrammars plugin),
/// carried as this target's resources.
///
/// A parser finds them by itself (beside the executable, where SwiftPM puts the resource folder), so an
/// app never needs this type; it says where they are, for an app that copies its executable elsewhere
/// and must take the folder along (or point `MEDIAPARSE_SHIPPED_GRAMMARS` at it).
public enum BuiltInGrammars {
    /// The folder of the compiled grammars, one `<locale>.grammar` file per built-in locale.
    public static var directory: URL? { Bundle.module.resourceURL }
}
