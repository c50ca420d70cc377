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
        /// The last step of the path, for coverage.
        var step: Int32
    }

    private static let quoteCharacters = CharacterSet(charactersIn: "\"'“”‘’«»„‚「」『』").union(.whitespacesAndNewlines)

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
        for step in chain {
            let range = Int(step.start)..<Int(step.end)
            guard step.slot >= 0 else {
                if explain { words.append(.init(text: utterance.originalText(tokens: range), matched: "literal", value: nil)) }
                continue
            }
            let said = utterance.originalText(tokens: range)
            let ref = grammar.slots[Int(step.slot)]
            let value: SlotValue
            switch ref.source {
            case let .list(list, _):
                value = grammar.lists[list].values[Int(step.payload)] ?? .text(said)
            case let .recognizer(kind):
                // Text-valued recognisers (frequencies) report the words as said.
                value = kind.valueKind == .text ? .text(said) : input.entities[Int(step.payload)].value
            case .wildcard where step.payload >= 0:
                // A vocabulary hit: the entry's own string (or the global item's identifier).
                let entry = input.vocabulary[Int(step.payload)].entry
                value = .text(entry.value)
            case .wildcard:
                wildcardWords += range.count
                value = .text(said.trimmingCharacters(in: Self.quoteCharacters))
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
            if values[field] != nil { return nil }
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

        var result = ParseResult(intent: sentence.intent == .notMedia ? nil : sentence.intent.rawValue)
        if sentence.intent != .notMedia {
            fill(&result, values: values, lists: lists, intent: sentence.intent)
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
            let r = candidate.rank.value
            let literals = Int((r + Rank.literal / 2) / Rank.literal)
            let entity = Int(((r - Int64(literals) * Rank.literal) + Rank.entityWord / 2) / Rank.entityWord)
            result.explain = Explanation(intent: sentence.intent.rawValue, sentence: sentence.text,
                                         source: sentence.location.description, words: words,
                                         rank: [literals, entity, wildcardWords, chain.filter { step in
                                             step.slot >= 0 && { if case .wildcard = grammar.slots[Int(step.slot)].source { return true }; return false }()
                                         }.count])
        }
        return Reading(result: result, rank: candidate.rank, sentence: candidate.sentence, wildcardWords: wildcardWords,
                       step: candidate.step)
    }

    private func fill(_ result: inout ParseResult, values: [Field: SlotValue], lists: [Field: [String]], intent: IntentName) {
        var search = MediaSearch()
        func text(_ f: Field) -> String? { values[f]?.text }
        search.mediaType = text(.mediaType)
        search.mediaName = text(.mediaName)
        search.artistName = text(.artistName)
        search.albumName = text(.albumName)
        search.genreNames = lists[.genreNames]
        search.moodNames = lists[.moodNames]
        if case let .dateRange(start, end)? = values[.releaseDate] { search.releaseDate = DateRange(start: start, end: end) }
        search.sortOrder = text(.sortOrder)
        search.reference = text(.reference)
        search.mediaIdentifier = text(.mediaIdentifier)
        // "music" says only "something musical": it stays the media type when nothing more specific was
        // said ("play music", "play my music"), and gives way to an artist, a genre, a date, a name ...
        // ("play music by Khalid" searches the artist, as "play Khalid" does).
        if search.mediaType == "music",
           search.mediaName != nil || search.artistName != nil || search.albumName != nil || search.genreNames != nil
            || search.moodNames != nil || search.releaseDate != nil || search.sortOrder != nil {
            search.mediaType = nil
        }
        if intent.hasMediaSearch, !search.isEmpty { result.mediaSearch = search }

        func flag(_ f: Field) -> Bool? { if case let .flag(b)? = values[f] { return b }; return nil }
        result.playShuffled = flag(.playShuffled)
        result.resumePlayback = flag(.resumePlayback)
        result.playbackRepeatMode = text(.playbackRepeatMode)
        result.playbackQueueLocation = text(.playbackQueueLocation)
        result.playbackSpeed = values[.playbackSpeed]?.number
        if flag(.library) != nil || text(.playlistName) != nil {
            result.mediaDestination = MediaDestination(library: flag(.library), playlistName: text(.playlistName))
        }
        result.affinityType = text(.affinityType)
        result.appName = text(.appName)
        result.command = text(.command)
        result.interval = values[.interval]?.number
        result.repeatMode = text(.repeatMode)
        result.shuffle = flag(.shuffle)
        result.playbackRate = values[.playbackRate]?.number
        result.property = text(.property)
        result.volume = values[.volume]?.number
        result.volumeChange = text(.volumeChange)
        result.volumeStep = values[.volumeStep]?.number
        if text(.area) != nil || text(.device) != nil { result.target = Target(area: text(.area), device: text(.device)) }
    }
}
