import Foundation
import MediaParse
#if canImport(Glibc)
import Glibc
#endif

/// Measurements of the parser's speed and memory, with the cost of ICU alone as the floor to compare with.
public enum Benchmark {
    /// Seconds of a closure, by the monotonic clock.
    public static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s[min(s.count - 1, Int((Double(s.count) * p).rounded(.up)) - 1)]
    }

    /// Utterances a second of ICU alone: matching-form folding of the whole utterance plus word breaking,
    /// with one iterator reused (the floor a rule-based parser builds on). Median of `iterations` passes.
    public static func icuFloor(locale: String, utterances: [String], iterations: Int) throws -> Double {
        let session = try ICUSession(locale: locale.replacingOccurrences(of: "-", with: "_"))
        var sink = 0
        var rates: [Double] = []
        for _ in 0..<max(iterations, 1) {
            let t = time {
                for u in utterances {
                    sink &+= matchingForm(u).utf8.count
                    sink &+= session.segments(Array(u.utf16)).count
                }
            }
            rates.append(Double(utterances.count) / t)
        }
        if sink == 42 { print("") }  // keep the work from being optimised away
        return median(rates)
    }

    /// Utterances a second of `parser` on one thread (median of `iterations` passes), and the 50th and 99th
    /// percentile of single parses in seconds.
    public static func parseRate(_ parser: MediaParser, utterances: [String], iterations: Int)
        -> (rate: Double, p50: Double, p99: Double) {
        for u in utterances { _ = parser.parse(u) }  // warm-up
        var rates: [Double] = []
        for _ in 0..<max(iterations, 1) {
            let t = time { for u in utterances { _ = parser.parse(u) } }
            rates.append(Double(utterances.count) / t)
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(utterances.count)
        for u in utterances { latencies.append(time { _ = parser.parse(u) }) }
        return (median(rates), percentile(latencies, 0.5), percentile(latencies, 0.99))
    }

    /// Seconds to load and compile the grammar of `locale` (median of `repeats`).
    public static func startup(locale: String, catalog: GrammarCatalog = .builtIn, repeats: Int) throws -> Double {
        var times: [Double] = []
        for _ in 0..<max(repeats, 1) {
            // As a new process starts: the disk cache only, nothing kept in memory by an earlier parser.
            MediaParser.forgetRecentGrammars()
            times.append(try time { _ = try MediaParser(locale: locale, catalog: catalog, cacheCompiledGrammar: true) })
        }
        return median(times)
    }

    /// The built-in catalog with every sentence of `locale`'s folders written twice (the rules and lists
    /// once), to see whether cost grows with the number of templates.
    public static func catalogWithSentencesDoubled(locale: String) throws -> GrammarCatalog {
        var catalog = GrammarCatalog.builtIn
        let (_, chain) = try GrammarLoader(catalog: catalog).resolve(locale)
        for folder in chain {
            for (path, file) in catalog.folders[folder] ?? [:] where path != "locale.yaml" {
                guard let range = file.text.range(of: "\nintents:") ?? (file.text.hasPrefix("intents:") ? file.text.range(of: "intents:") : nil) else { continue }
                var intents = String(file.text[range.lowerBound...])
                // Stop at the next top-level key after intents.
                let lines = intents.split(separator: "\n", omittingEmptySubsequences: false)
                var kept: [Substring] = []
                for (i, line) in lines.enumerated() {
                    if i > 1, let c = line.first, !c.isWhitespace, c != "#" { break }
                    kept.append(line)
                }
                intents = kept.joined(separator: "\n")
                catalog.add(folder: folder, path: "zz-doubled/" + path, text: intents)
            }
        }
        return catalog
    }

    /// Peak resident memory of this process so far, in bytes.
    public static func peakMemory() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// Vocabulary of made-up names, `user` user entries and `global` global synonyms (two per item).
    public static func syntheticVocabulary(user: Int, global: Int) -> (UserVocabulary, GlobalVocabulary) {
        let words = ("amber basalt cobalt delta ember fjord garnet harbor indigo juniper kestrel lumen marlin nectar onyx "
            + "prairie quartz raven saffron tundra umber vesper willow xenon yonder zephyr aurora bramble cinder dune")
            .split(separator: " ").map { $0.capitalized }
        var seed: UInt64 = 7
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        func name() -> String {
            var parts = (0..<(2 + next() % 3)).map { _ in words[next() % words.count] }
            if next() % 4 == 0 { parts.insert(String([7, 12, 21, 50, 99, 1984][next() % 6]), at: next() % (parts.count + 1)) }
            return parts.joined(separator: " ")
        }
        let types = VocabularyType.allCases
        var phrases: [VocabularyType: [String]] = [:]
        for i in 0..<user { phrases[types[i % types.count], default: []].append(name()) }
        var items: [GlobalVocabulary.Item] = []
        for i in 0..<(global / 2) {
            items.append(GlobalVocabulary.Item(type: types[i % types.count], identifier: "item-\(i)",
                                               synonyms: [.init(phrase: name()), .init(phrase: name())]))
        }
        return (UserVocabulary(phrases), GlobalVocabulary(items: items))
    }
}
