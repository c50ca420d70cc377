import Foundation

/// Every grammar file there is, by locale folder: the built-in ones, with `--grammars` folders on top.
public struct GrammarCatalog: Sendable {
    package struct File: Sendable {
        /// What error messages call it: `Grammars/en/play.yaml` or the path on disk.
        package var displayPath: String
        package var text: String
    }

    /// folder name ("en", "en-GB") -> path inside the folder -> file
    package private(set) var folders: [String: [String: File]] = [:]

    /// The grammars compiled into the library.
    public static let builtIn: GrammarCatalog = {
        var catalog = GrammarCatalog()
        for (path, text) in embeddedGrammarFiles {
            catalog.add(path: path, text: text, displayPrefix: "Grammars/")
        }
        return catalog
    }()

    public init() {}

    private mutating func add(path: String, text: String, displayPrefix: String) {
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return }  // files directly under Grammars/ (none are grammar)
        folders[parts[0], default: [:]][parts[1]] = File(displayPath: displayPrefix + path, text: text)
    }

    /// Adds or replaces files from `directory`, laid out like `Grammars/` (`DIR/en/extra.yaml`).
    ///
    /// - Throws: `GrammarError` when `directory` is not a folder, holds no grammar file, or holds a file that
    ///   cannot be read; the catalog is then unchanged.
    public mutating func overlay(directory: String) throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GrammarError("not a folder of grammars (expected DIR/<locale>/*.yaml)", at: SourceLocation(file: directory))
        }
        var paths: [String] = []
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "yaml" || url.pathExtension == "yml" {
                paths.append(url.standardizedFileURL.path)
            }
        }
        guard !paths.isEmpty else {
            throw GrammarError("no grammar files in this folder (expected DIR/<locale>/*.yaml)", at: SourceLocation(file: directory))
        }
        // Into a copy: a file that cannot be used leaves the catalog as it was.
        var folders = self.folders
        for path in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw GrammarError("cannot read the file", at: SourceLocation(file: path))
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw GrammarError("not UTF-8 text", at: SourceLocation(file: path))
            }
            let relative = String(path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let parts = relative.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw GrammarError("grammar files go in a locale folder (DIR/en/\(relative))", at: SourceLocation(file: path))
            }
            folders[parts[0], default: [:]][parts[1]] = File(displayPath: path, text: text)
        }
        self.folders = folders
    }

    /// Adds one file in memory, as if it were `folder/path` (for tools and tests).
    public mutating func add(folder: String, path: String, text: String) {
        folders[folder, default: [:]][path] = File(displayPath: "\(folder)/\(path)", text: text)
    }

    /// Locale folders that hold at least one grammar file, sorted (not the shared lists of `mul/`).
    public var locales: [String] { folders.keys.filter { $0 != GrammarLoader.sharedFolder }.sorted() }
}

/// A locale name in BCP 47 form: "de_DE" -> "de-DE", "EN-gb" -> "en-GB", "zh_Hans_CN" -> "zh-Hans-CN".
func canonicalLocaleName(_ name: String) -> String {
    let parts = name.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
    guard let language = parts.first else { return "" }
    var out = [language.lowercased()]
    for part in parts.dropFirst() {
        if part.count == 4, part.allSatisfy(\.isLetter) {
            out.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
        } else if part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)) {
            out.append(part.uppercased())
        } else {
            out.append(part.lowercased())
        }
    }
    return out.joined(separator: "-")
}
