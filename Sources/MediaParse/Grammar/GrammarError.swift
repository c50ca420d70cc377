/// Where something was written: a file and, where the format has them, a line and column (1-based).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        return s
    }

    /// The same place `offset` characters further along the line.
    func advanced(by offset: Int) -> SourceLocation {
        var copy = self
        if let c = column { copy.column = c + offset }
        return copy
    }
}

/// A grammar, locale or vocabulary file that cannot be used, with the place that is wrong and what to do.
public struct GrammarError: Error, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): error: \(message)" }
}

/// A locale that no grammar folder serves.
public struct UnsupportedLocaleError: Error, Sendable, CustomStringConvertible {
    public var requested: String
    public var available: [String]
    public var description: String {
        "unsupported locale '\(requested)'; available: \(available.joined(separator: ", "))"
    }
}
