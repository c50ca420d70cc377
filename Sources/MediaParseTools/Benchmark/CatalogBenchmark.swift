import Foundation
import MediaParse
import MediaParseCatalog

/// The catalogue benchmark: a generated catalogue of N items written as JSON Lines, imported into SQLite,
/// then requests resolved one at a time.
public enum CatalogBenchmark {
    /// A deterministic catalogue of `count` items: titles, artists and albums made of common words (so
    /// that many titles share words, as real ones do), types in a music app's proportions.
    public static func writeCatalog(count: Int, to path: String, seed: UInt64 = 42) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let out = FileHandle(forWritingAtPath: path) else {
            throw CatalogError.readOnly(path)
        }
        defer { try? out.close() }
        var rng = SplitMix(seed: seed)
        var buffer = Data()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for i in 0..<count {
            let row = item(i, rng: &rng)
            buffer.append(try encoder.encode(row))
            buffer.append(0x0A)
            if buffer.count > 1 << 20 { out.write(buffer); buffer.removeAll(keepingCapacity: true) }
        }
        out.write(buffer)
    }

    static let words = """
        love night heart fire dream light rain summer city dance river blue gold home road sky time world girl boy
        moon star sun ocean wild free young old black white red green midnight morning shadow silver golden
        broken hearts lonely crazy sweet little big last first forever never always tonight yesterday tomorrow
        angel devil queen king paradise heaven hell storm thunder electric velvet glass stone iron paper
        highway street garden island desert mountain valley winter spring autumn echo mirror window door
        """.split(whereSeparator: \.isWhitespace).map(String.init)
    static let first = "james maria anna john lisa david sara paul emma leo nina max ella sam kate tom lily ben zoe jack".split(separator: " ").map(String.init)
    static let last = "smith jones taylor brown wilson moore clark hall young king wright green baker adams nelson carter hill".split(separator: " ").map(String.init)
    static let genres = ["pop", "rock", "jazz", "hip hop", "classical", "country", "electronic", "folk", "soul", "metal", "reggae", "blues"]

    /// Made-up words of two or three syllables: the long tail of a real catalogue's vocabulary.
    static let syllables = "ka lo mi ra ven to sha di nu bel or an el za fu ri mo te sa li".split(separator: " ").map(String.init)

    static func word(_ rng: inout SplitMix) -> String {
        if rng.next(2) == 0 { return words[rng.next(words.count)] }
        return (0..<(2 + rng.next(2))).map { _ in syllables[rng.next(syllables.count)] }.joined()
    }

    static func phrase(_ n: Int, rng: inout SplitMix) -> String {
        (0..<n).map { _ in word(&rng).capitalized }.joined(separator: " ")
    }

    /// Artist `i` of about 100,000: the same index gives the same name.
    static func artist(_ i: Int) -> String {
        var own = SplitMix(seed: UInt64(i) &* 0x9E37_79B9)
        switch own.next(3) {
        case 0: return "The " + phrase(1 + own.next(2), rng: &own)
        case 1: return phrase(1 + own.next(2), rng: &own)
        default: return first[own.next(first.count)].capitalized + " " + word(&own).capitalized + last[own.next(last.count)]
        }
    }

    static func item(_ i: Int, rng: inout SplitMix) -> CatalogRow {
        let roll = rng.next(100)
        let type = roll < 70 ? "song" : roll < 85 ? "album" : roll < 90 ? "artist" : roll < 94 ? "playlist" : roll < 97 ? "podcastEpisode" : "audioBook"
        let artist = artist(rng.next(100_000))
        var title = type == "artist" ? artist : phrase(1 + rng.next(4), rng: &rng)
        if rng.next(10) == 0 { title += ["  (Remastered)", " - Live", " (feat. \(Self.artist(rng.next(1000))))", " (Deluxe Edition)"][rng.next(4)] }
        let year = 1960 + rng.next(66)
        return CatalogRow(identifier: "gen-\(i)", type: type, title: title, artist: type == "artist" ? nil : artist,
                          album: type == "song" ? phrase(1 + rng.next(3), rng: &rng) : nil, genres: [genres[rng.next(genres.count)]],
                          releaseDate: String(year), popularity: Double(rng.next(1000)) / 1000)
    }

    /// Requests for items of the generated catalogue, as parsed results ("play <title> by <artist>",
    /// "play <title>", "play <artist>", the newest album of an artist), and a share of absent ones.
    public static func requests(count: Int, catalogSize: Int, locale: String, seed: UInt64 = 7) -> [ParseResult] {
        var rng = SplitMix(seed: 42)
        // The same sequence as the catalogue, to know its items without reading it.
        var items: [CatalogRow] = []
        let wanted = Set((0..<count).map { ($0 &* 7919) % max(catalogSize, 1) })
        for i in 0..<catalogSize {
            let row = item(i, rng: &rng)
            if wanted.contains(i) { items.append(row) }
            if items.count == wanted.count { break }
        }
        var pick = SplitMix(seed: seed)
        return (0..<count).map { n in
            let row = items[n % items.count]
            var search = MediaSearch()
            switch n % 5 {
            case 0: search.mediaName = row.title.lowercased(); search.artistName = row.artist?.lowercased()
            case 1: search.mediaName = row.title.lowercased()
            case 2: search.artistName = row.artist?.lowercased() ?? row.title.lowercased(); search.mediaType = .album; search.sortOrder = .newest
            case 3: search.mediaName = phrase(3, rng: &pick).lowercased() + " " + words[pick.next(words.count)]  // most likely absent
            default: search.mediaName = row.title.lowercased(); search.mediaType = MediaItemType(rawValue: row.type)
            }
            var r = ParseResult(utterance: nil, locale: locale, intent: .play)
            r.mediaSearch = search
            return r
        }
    }

    /// Which of the request shapes `r` is, for the figures per shape.
    public static func kind(of r: ParseResult) -> String {
        let s = r.mediaSearch ?? MediaSearch()
        if s.sortOrder != nil { return "artist's newest album" }
        if s.artistName != nil { return "title by artist" }
        if s.mediaType != nil { return "title and type" }
        return "title alone (a fifth of them absent)"
    }

    /// A small deterministic generator (SplitMix64), so that every run measures the same catalogue.
    public struct SplitMix {
        var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(bound))
        }
    }

    /// Hands memory freed by the allocator back to the system (glibc's `malloc_trim`, looked up at run
    /// time: Swift's Glibc module does not declare it), so that resident memory counts what is in use.
    public static func returnFreedMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    /// Resident memory of this process now, in bytes (Linux; 0 elsewhere).
    public static func residentMemory() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let parts = text.split(separator: " ")
        guard parts.count > 1, let pages = Int(parts[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
