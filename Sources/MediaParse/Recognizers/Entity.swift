/// The built-in recognisers a template can use like lists: `{decade:releaseDate}`.
public enum RecognizerKind: String, Sendable, CaseIterable {
    case number, ordinal, year, decade
    case releaseDate = "release_date"
    case speed, duration
    /// A percentage ("40 percent", "40 %"): its number.
    case percent
    /// A radio frequency: a number followed by a band word ("89.1 FM"); its value is the text as said.
    case frequency

    /// Does a slot bound to this recogniser take an entity of `kind`?
    func accepts(_ kind: RecognizerKind) -> Bool {
        self == kind || (self == .releaseDate && (kind == .year || kind == .decade))
    }

    /// The kind of value it produces.
    var valueKind: Field.Kind {
        switch self {
        case .year, .decade, .releaseDate: return .dateRange
        case .frequency: return .text
        default: return .number
        }
    }
}

/// Something a recogniser found: tokens `[start, end)` and what they mean.
struct Entity: Sendable, Hashable {
    var start: Int
    var end: Int
    var kind: RecognizerKind
    var value: SlotValue
    /// Words of the entity that are fixed words of a locale's phrase ("del" of "del 99", "años" of "años
    /// ochenta"): they rank as literal words, as the same words in a template would.
    var literalWords = 0
}
