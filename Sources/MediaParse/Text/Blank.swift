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
            // Transcoded here, not through the standard library's generic path (a tenth of a start-up went
            // there, cutting the number words of German, Chinese, Japanese). At most three bytes a unit: a
            // surrogate pair (two units) takes four.
            self.init(unsafeUninitializedCapacity: units.count * 3) { bytes in
                var i = 0
                var iterator = units.makeIterator()
                var next = iterator.next()
                while let unit = next {
                    next = iterator.next()
                    var scalar = UInt32(unit)
                    if unit & 0xFC00 == 0xD800, let low = next, low & 0xFC00 == 0xDC00 {
                        scalar = 0x10000 + ((scalar & 0x3FF) << 10) + (UInt32(low) & 0x3FF)
                        next = iterator.next()
                    } else if unit & 0xF800 == 0xD800 {
                        scalar = 0xFFFD  // a lone surrogate
                    }
                    if scalar < 0x80 {
                        bytes[i] = UInt8(scalar)
                        i += 1
                    } else if scalar < 0x800 {
                        bytes[i] = UInt8(0xC0 | (scalar >> 6))
                        bytes[i + 1] = UInt8(0x80 | (scalar & 0x3F))
                        i += 2
                    } else if scalar < 0x10000 {
                        bytes[i] = UInt8(0xE0 | (scalar >> 12))
                        bytes[i + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                        bytes[i + 2] = UInt8(0x80 | (scalar & 0x3F))
                        i += 3
                    } else {
                        bytes[i] = UInt8(0xF0 | (scalar >> 18))
                        bytes[i + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
                        bytes[i + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                        bytes[i + 3] = UInt8(0x80 | (scalar & 0x3F))
                        i += 4
                    }
                }
                return i
            }
        }
    }
}
