/// Spaces at the ends of a string, as Foundation's `CharacterSet.whitespaces` counts them (the space
/// separators of Unicode, and the tab), without Foundation: on Linux `trimmingCharacters(in:)` bridges every
/// call through `NSString`, which made it a tenth of a catalogue import's time.
extension StringProtocol {
    /// The string without spaces and tabs at either end.
    package var trimmedOfSpaces: String {
        guard let first = unicodeScalars.firstIndex(where: { !Self.isSpace($0) }) else { return "" }
        let last = unicodeScalars.lastIndex(where: { !Self.isSpace($0) })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: unicodeScalars[first...last])
        return String(out)
    }

    /// Nothing but spaces and tabs, or empty.
    package var isBlank: Bool { unicodeScalars.allSatisfy(Self.isSpace) }

    @inline(__always)
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || (s.value >= 0x80 && s.properties.generalCategory == .spaceSeparator)
    }
}

extension String {
    /// UTF-16 code units (ICU's output, a slice of an utterance) as a string. The standard library's
    /// `String(decoding:as: UTF16.self)` transcodes through a slow generic path even for ASCII, and words
    /// are mostly ASCII: those are copied byte for byte. Others are decoded as before (a lone surrogate
    /// becomes U+FFFD).
    init<Units: Collection>(utf16Units units: Units) where Units.Element == UInt16 {
        if units.allSatisfy({ $0 < 0x80 }) {
            self.init(unsafeUninitializedCapacity: units.count) { bytes in
                var i = 0
                for unit in units {
                    bytes[i] = UInt8(truncatingIfNeeded: unit)
                    i += 1
                }
                return i
            }
        } else {
            self.init(decoding: units, as: UTF16.self)
        }
    }
}
