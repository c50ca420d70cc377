/// What a locale's transliterator (`transform:` in `locale.yaml`, "Traditional-Simplified" for Chinese)
/// makes of each character of the Basic Multilingual Plane's Han blocks, asked once when the grammar is
/// compiled and kept with it.
///
/// Chinese reads every Han character as a word of its own, so nearly every word a Chinese parse transforms
/// is one such character. Opening ICU's transliterator takes some 14 ms, most of a Chinese start-up; with
/// this table a parser whose grammar was read from a file answers those words itself, and opens the
/// transliterator only for a word the table does not cover (several characters that are not all ASCII,
/// or a character outside these blocks). The answer is ICU's own, asked of the same ICU version: the
/// grammar's key holds it.
package struct TransformTable: Sendable, Equatable {
    /// The characters the table answers for: CJK Unified Ideographs, their Extension A, and the
    /// compatibility ideographs.
    static let blocks: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF]

    /// The characters of `blocks` the transliterator changes, and what it makes of each; every other
    /// character of the blocks it leaves as it is.
    private(set) var changed: [UInt32: String]

    init(changed: [UInt32: String]) {
        self.changed = changed
    }

    /// Asks `session`'s transliterator about every character of `blocks` (some 28,000, a fraction of a second).
    init(session: ICUSession) {
        var changed: [UInt32: String] = [:]
        for block in Self.blocks {
            for value in block {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let character = String(Character(scalar))
                let result = session.transformed(character)
                // Bytes, not `==`: a compatibility ideograph and its unified twin are equal as Strings.
                if !result.utf8.elementsEqual(character.utf8) { changed[value] = result }
            }
        }
        self.init(changed: changed)
    }

    /// What the transliterator makes of `text` when it is one character of `blocks`; nil for any other text.
    func transformed(_ text: String) -> String? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let scalar = scalars.next(), scalars.next() == nil,
              Self.blocks.contains(where: { $0.contains(scalar.value) }) else { return nil }
        return changed[scalar.value] ?? text
    }
}

extension TransformTable {
    /// In character order, so that the same table always gives the same bytes.
    func write(to w: inout BinaryWriter) {
        let values = changed.keys.sorted()
        w.int(values.count)
        for value in values {
            w.u32(value)
            w.string(changed[value]!)
        }
    }

    init(reading r: inout BinaryReader) throws {
        var changed: [UInt32: String] = [:]
        for _ in 0..<(try r.count()) {
            let value = try r.u32()
            guard Self.blocks.contains(where: { $0.contains(value) }) else { throw CacheFormatError() }
            changed[value] = try r.string()
        }
        self.init(changed: changed)
    }
}
