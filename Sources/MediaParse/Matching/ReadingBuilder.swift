import Foundation

/// Turns a matched path into a result: slot values from list entries, entities and original text, the
/// sentence's `set:` values, spans, and the explanation.
struct ReadingBuilder {
    let grammar: CompiledGrammar

    struct Reading {
        var result: ParseResult
        var rank: Rank
        var sentence: Int32
        var wildcardWords: Int
        /// Tolerance used: skipped words, template words assumed, extra words.
        var skipped = 0, assumed = 0, extra = 0
        /// The last step of the path, for coverage.
        var step: Int32
    }

    /// Quotes and spaces around a free text ("play \"Hello\"") are not part of it.
    @inline(__always)
    private static func isQuoteOrSpace(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\"", "'", "“", "”", "‘", "’", "«", "»", "„", "‚", "「", "」", "『", "』": return true
        default: return s.value >= 0x80 && (s.properties.isWhitespace)
        }
    }

    /// `said` without quotes and spaces at either end; most free texts have none, and are returned as they are.
    static func withoutQuotes(_ said: String) -> String {
        let scalars = said.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return said }
        if !isQuoteOrSpace(first), !isQuoteOrSpace(last) { return said }
        guard let from = scalars.firstIndex(where: { !isQuoteOrSpace($0) }) else { return "" }
        let to = scalars.lastIndex(where: { !isQuoteOrSpace($0) })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[from...to])
        return String(out)
    }

    /// nil when the reading fills a single-valued field twice.
    func build(_ candidate: Candidate, utterance: Utterance, input: MatchInput, steps: [Step], explain: Bool) -> Reading? {
        var chain: [Step] = []
        var at = candidate.step
        while at >= 0 {
            chain.append(steps[Int(at)])
            at = steps[Int(at)].parent
        }
        chain.reverse()

        var values: [Field: SlotValue] = [:]
        var lists: [Field: [String]] = [:]
        var spans: [Field: [Int]] = [:]
        var words: [Explanation.Word] = []
        var wildcardWords = 0
        var vocabularyType: String? = nil
        var uses: [VocabularyUse] = []
        var skipped = 0, assumed: [String] = [], extra = 0
        for step in chain {
            let range = Int(step.start)..<Int(step.end)
            switch step.slot {
            case StepKind.skipped:
                skipped += range.count
                if explain { words.append(.init(text: utterance.originalText(tokens: range), matched: "skipped", value: nil)) }
                continue
            case StepKind.extra:
                extra += range.count
                if explain { words.append(.init(text: utterance.originalText(tokens: range), matched: "extra", value: nil)) }
                continue
            case StepKind.assumed:
                let word = explain ? (grammar.wordIDs.first { $0.value == step.payload }?.key.text ?? "?") : ""
                assumed.append(word)
                if explain { words.append(.init(text: "", matched: "assumed", value: word)) }
                continue
            case ..<0:
                if explain { words.append(.init(text: utterance.originalText(tokens: range), matched: "literal", value: nil)) }
                continue
            default: break
            }
            let said = utterance.originalText(tokens: range)
            let ref = grammar.slots[Int(step.slot)]
            let value: SlotValue
            switch ref.source {
            case let .list(list, _):
                value = step.payload < 0 ? .text(input.callerNames.value(ofPayload: step.payload))
                    : grammar.lists[list].values[Int(step.payload)] ?? .text(said)
            case let .recognizer(kind):
                // Text-valued recognisers (frequencies) report the words as said.
                value = kind.valueKind == .text ? .text(said) : input.entities[Int(step.payload)].value
            case .wildcard where step.payload >= 0:
                // A vocabulary hit: the entry's own string (or the global item's identifier).
                let entry = input.vocabulary[Int(step.payload)].entry
                value = .text(entry.value)
            case .wildcard:
                wildcardWords += range.count
                value = .text(Self.withoutQuotes(said))
            case .call:
                continue  // a call adds its own steps, never one of its slot
            }
            if explain {
                words.append(.init(text: said, matched: "{\(ref.listName):\(ref.slotName)}", value: value.description))
            }
            guard var field = ref.field else { continue }
            if case .wildcard = ref.source, step.payload >= 0 {
                let entry = input.vocabulary[Int(step.payload)].entry
                var use = entry.use
                // A name slot takes the entry's field and type; a destination (playlistName) keeps its own.
                if field == .mediaName || field == .artistName || field == .albumName {
                    field = entry.field
                    vocabularyType = entry.mediaType
                }
                use.field = field.rawValue
                uses.append(use)
            }
            if field.isList, case let .text(s) = value {
                if !(lists[field]?.contains(s) ?? false) { lists[field, default: []].append(s) }
                let span = utterance.span(tokens: range)
                spans[field] = spans[field].map { [min($0[0], span[0]), max($0[1], span[1])] } ?? span
                continue
            }
            // Two dates said together are one range from the earlier start to the later end ("from the
            // seventies and eighties", "von 1990 bis 1995"); the grammar says where two may stand.
            if field == .releaseDate, case let .dateRange(s1, e1)? = values[field], case let .dateRange(s2, e2) = value {
                values[field] = .dateRange(start: min(s1, s2), end: max(e1, e2))
                let span = utterance.span(tokens: range)
                spans[field] = spans[field].map { [min($0[0], span[0]), max($0[1], span[1])] } ?? span
                continue
            }
            if values[field] != nil { return nil }
            // A number the contract does not allow in the field: not a reading of the request.
            if let allowed = field.allowedNumbers, case let .number(n) = value, !allowed.contains(n) { return nil }
            values[field] = value
            spans[field] = utterance.span(tokens: range)
        }
        if let type = vocabularyType {
            values[.mediaType] = .text(type)  // the entry's type says what it is
        }
        let sentence = grammar.sentences[Int(candidate.sentence)]
        for (field, value) in sentence.set where values[field] == nil && lists[field] == nil {
            if field.isList, case let .text(s) = value { lists[field] = [s] } else { values[field] = value }
        }

        var result = ParseResult(intent: sentence.intent.mediaIntent)
        if sentence.intent != .notMedia {
            result.fill(values: values, lists: lists, intent: sentence.intent)
            if result.mediaSearch?.mediaType == nil { spans[.mediaType] = nil }
            var ordered: [(key: String, range: [Int])] = []
            for field in Field.allCases {
                guard let span = spans[field] else { continue }
                let key = field.spanKey
                if let i = ordered.firstIndex(where: { $0.key == key }) {
                    ordered[i].range = [min(ordered[i].range[0], span[0]), max(ordered[i].range[1], span[1])]
                } else {
                    ordered.append((key, span))
                }
            }
            if !ordered.isEmpty { result.spans = Spans(ordered) }
            if !uses.isEmpty { result.vocabulary = uses }
        }
        if explain {
            let (literals, entity) = candidate.rank.counts
            result.explain = Explanation(intent: sentence.intent.rawValue, sentence: sentence.text,
                                         source: sentence.location.description, words: words,
                                         rank: [literals, entity, wildcardWords, chain.filter { step in
                                             step.slot >= 0 && { if case .wildcard = grammar.slots[Int(step.slot)].source { return true }; return false }()
                                         }.count])
        }
        return Reading(result: result, rank: candidate.rank, sentence: candidate.sentence, wildcardWords: wildcardWords,
                       skipped: skipped, assumed: assumed.count, extra: extra, step: candidate.step)
    }
}
