import Foundation
import MediaParse
import MediaParseCatalog
import Yams

/// A resolution corpus: a catalogue and requests with the item each must resolve to
/// (`Corpus/<locale>/resolve/requests.yaml`; format in Corpus/README.md, "Resolution corpus").
public struct ResolutionCorpus: Sendable {
    public struct Request: Sendable {
        public var text: String
        /// Identifiers any of which is right first; empty: the catalogue has nothing that fits (notFound).
        public var expect: [String]
        /// The difficulty the request tests ("variant", "soundalike", "absent" …).
        public var trap: String?
        public var location: SourceLocation
        public var expectsNotFound: Bool { expect.isEmpty }
    }

    public var path: String
    public var locale: String
    /// The catalogue file, resolved against the requests file's folder.
    public var catalogPath: String
    public var requests: [Request]

    /// The requests files under `directory` (`resolve/requests.yaml` of each locale folder), sorted.
    public static func files(under directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { isRequestsFile($0) }
            .map { (directory as NSString).appendingPathComponent($0) }
            .sorted()
    }

    /// Whether a path inside a corpus folder is a resolution corpus's requests file (not a parse corpus file).
    public static func isRequestsFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 2] == "resolve" && (parts.last!.hasSuffix(".yaml") || parts.last!.hasSuffix(".yml"))
    }

    /// Whether a path inside a corpus folder belongs to a resolution corpus.
    public static func isResolutionPath(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains("resolve")
    }

    /// Reads a requests file. Errors name the file, line and column.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw GrammarError("cannot read the file as UTF-8 text", at: SourceLocation(file: path))
        }
        self.path = path
        let yaml = try YAMLFile(path: path, text: text)
        guard let root = yaml.root else { throw GrammarError("empty requests file", at: SourceLocation(file: path)) }
        let top = try yaml.mapping(root, "a requests file")
        try yaml.checkKeys(top, allowed: ["locale", "catalog", "requests"], in: "a requests file")
        guard let locale = try top.first(where: { $0.key == "locale" }).map({ try yaml.string($0.value, "locale") }) else {
            throw GrammarError("a requests file needs `locale:`", at: yaml.location(root))
        }
        self.locale = locale
        let catalog = try top.first(where: { $0.key == "catalog" }).map { try yaml.string($0.value, "catalog") } ?? "catalog.jsonl"
        catalogPath = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(catalog)
        requests = []
        for item in try top.first(where: { $0.key == "requests" }).map({ try yaml.sequence($0.value, "requests") }) ?? [] {
            let entries = try yaml.mapping(item, "a request")
            try yaml.checkKeys(entries, allowed: ["text", "expect", "trap"], in: "a request")
            guard let textNode = entries.first(where: { $0.key == "text" })?.value,
                  let expectNode = entries.first(where: { $0.key == "expect" })?.value else {
                throw GrammarError("a request needs `text` and `expect` (an identifier, a list of them, or notFound)", at: yaml.location(item))
            }
            var expect = try yaml.sequenceOrScalar(expectNode, "expect").map { try yaml.string($0, "an identifier") }
            if expect == ["notFound"] { expect = [] }
            let trap = try entries.first(where: { $0.key == "trap" }).map { try yaml.string($0.value, "trap") }
            requests.append(Request(text: try yaml.string(textNode, "text"), expect: expect, trap: trap, location: yaml.location(textNode)))
        }
    }
}

/// How a resolution corpus scored.
public struct ResolutionScore: Sendable {
    public struct Miss: Sendable {
        public var request: ResolutionCorpus.Request
        public var result: ParseResult
        /// Where the expected item came (1-based), nil when not among the items.
        public var rank: Int?
    }

    public var locale: String
    public var present = 0, top1 = 0, top5 = 0
    public var absent = 0, absentNotFound = 0
    /// Requests answered notFound, and of those, the ones whose item is really absent.
    public var saidNotFound = 0, saidNotFoundRightly = 0
    public var byTrap: [String: (requests: Int, right: Int)] = [:]
    public var misses: [Miss] = []
    public var catalogItems = 0
    public var problems: [CatalogProblem] = []
    public var seconds = 0.0

    public var top1Rate: Double { present == 0 ? 1 : Double(top1) / Double(present) }
    public var top5Rate: Double { present == 0 ? 1 : Double(top5) / Double(present) }
    /// Of the requests for something absent, the share answered notFound.
    public var notFoundRate: Double { absent == 0 ? 1 : Double(absentNotFound) / Double(absent) }
    /// Of the notFound answers, the share that were right.
    public var notFoundPrecision: Double { saidNotFound == 0 ? 1 : Double(saidNotFoundRightly) / Double(saidNotFound) }

    /// The project's bar (issue "Resolve"): top-1 ≥ 0.95, top-5 ≥ 0.99, absent → notFound ≥ 0.95.
    public static let targets = (top1: 0.95, top5: 0.99, notFound: 0.95)
    public var meetsTargets: Bool {
        top1Rate >= Self.targets.top1 && top5Rate >= Self.targets.top5 && notFoundRate >= Self.targets.notFound
    }

    public var summaryLine: String {
        String(format: "%@: %d requests (%d items): top-1 %.3f, top-5 %.3f, absent -> notFound %.3f, notFound precision %.3f, %.1f s",
               locale, present + absent, catalogItems, top1Rate, top5Rate, notFoundRate, notFoundPrecision, seconds)
    }

    public var trapLines: [String] {
        byTrap.keys.sorted().map { t in
            let v = byTrap[t]!
            return "  " + t.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%4d/%4d", v.right, v.requests)
        }
    }

    public func missText(_ m: Miss) -> String {
        let want = m.request.expectsNotFound ? "notFound" : m.request.expect.joined(separator: " or ")
        let items = m.result.resolution?.items.prefix(3).map { "\($0.identifier) \"\($0.title)\" \($0.score)" } ?? []
        let got = m.result.resolution.map { $0.items.isEmpty ? "notFound" : items.joined(separator: ", ") } ?? "no resolution (nothing to look up)"
        var search = ""
        if let s = m.result.mediaSearch, let data = try? JSONEncoder.sorted.encode(s) { search = String(decoding: data, as: UTF8.self) }
        return "\(m.request.location): \"\(m.request.text)\" [\(m.request.trap ?? "-")]\n    want \(want)\n    got  \(got)\n    parse \(m.result.intent?.rawValue ?? "null") \(search)"
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}

/// Scores resolution corpora: each request parsed in its locale, resolved against the corpus's catalogue.
public enum ResolutionScorer {
    public static func score(_ corpus: ResolutionCorpus, catalog grammars: GrammarCatalog = .builtIn,
                             cacheCompiledGrammar: Bool = false) throws -> ResolutionScore {
        let started = Date()
        let parser = try MediaParser(locale: corpus.locale, catalog: grammars, cacheCompiledGrammar: cacheCompiledGrammar)
        let (catalog, summary) = try Catalog.load(file: corpus.catalogPath, locale: parser.locale, catalog: grammars)
        let resolver = Resolver(catalog: catalog)
        var score = ResolutionScore(locale: corpus.locale)
        score.catalogItems = summary.imported
        score.problems = summary.problems
        for r in corpus.requests {
            var result = parser.parse(r.text, alternatives: Resolver.readingsWanted)
            result.resolution = try resolver.resolve(result, alternatives: 9)
            let items = result.resolution?.items.map(\.identifier) ?? []
            let saidNotFound = result.resolution?.notFound == true
            if saidNotFound { score.saidNotFound += 1 }
            var right: Bool
            if r.expectsNotFound {
                score.absent += 1
                right = saidNotFound
                if right { score.absentNotFound += 1; score.saidNotFoundRightly += 1 }
                if !right { score.misses.append(.init(request: r, result: result, rank: nil)) }
            } else {
                score.present += 1
                let rank = items.firstIndex { r.expect.contains($0) }
                right = rank == 0
                if right { score.top1 += 1 }
                if let rank, rank < 5 { score.top5 += 1 }
                if !right { score.misses.append(.init(request: r, result: result, rank: rank.map { $0 + 1 })) }
            }
            let trap = r.trap ?? "-"
            score.byTrap[trap, default: (0, 0)].requests += 1
            if right { score.byTrap[trap, default: (0, 0)].right += 1 }
        }
        score.seconds = Date().timeIntervalSince(started)
        return score
    }
}
