/// The caller's own names (its app's names, the rooms of the home, the players): found in the words of an
/// utterance at parse time and offered as entries of the lists the grammar reads those fields from, so that
/// they never enter the compiled grammar. A parser with other names shares the compiled grammar (and its
/// cache file) with every other parser of its locale; a new `--app-name` compiles nothing.
///
/// An entry matched here is a list hit like a built-in entry's, except that its payload is negative
/// (`-(index + 1)`): the reading takes its value from here, as given by the caller.
struct CallerNames: Sendable {
    struct Entry: Sendable {
        /// The name's words in matching form ("kitchen", "homepod").
        var words: [String]
        /// The grammar lists it belongs to.
        var lists: [Int32]
        /// The name as the caller gave it: the value a reading reports.
        var value: String
    }

    private(set) var entries: [Entry] = []
    /// Entries by their first word.
    private var byFirstWord: [String: [Int]] = [:]

    var isEmpty: Bool { entries.isEmpty }

    init() {}

    /// - Throws: `GrammarError` naming the option (`--app-name`, `--area`, `--device`) when a name has no
    ///   words.
    init(appNames: [String], areaNames: [String], deviceNames: [String], grammar: CompiledGrammar,
         words: (String) -> [String]) throws {
        let appLists = grammar.lists.indices.filter { grammar.lists[$0].name == MediaParser.appListName }.map(Int32.init)
        func lists(reading field: Field) -> [Int32] {
            var found: [Int32] = []
            for slot in grammar.slots where slot.field == field {
                if case let .list(index, _) = slot.source, !found.contains(Int32(index)) { found.append(Int32(index)) }
            }
            return found.sorted()
        }
        for (names, option, what, targets) in [(appNames, "--app-name", "app name", appLists),
                                               (areaNames, "--area", "--area", lists(reading: .area)),
                                               (deviceNames, "--device", "--device", lists(reading: .device))] {
            for name in names {
                let w = words(name)
                guard !w.isEmpty else { throw GrammarError("\(what) '\(name)' has no words", at: SourceLocation(file: option)) }
                guard !targets.isEmpty else { continue }
                byFirstWord[w[0], default: []].append(entries.count)
                entries.append(Entry(words: w, lists: targets, value: name))
            }
        }
    }

    /// Adds the hits of these names in `tokens` to the input's list hits, keeping each position's hits
    /// sorted by list (the matcher finds a list's hits with one search).
    func addHits(to input: inout MatchInput, keys: [String]) {
        guard !entries.isEmpty else { return }
        for start in keys.indices {
            guard let candidates = byFirstWord[keys[start]] else { continue }
            var added = false
            for e in candidates {
                let w = entries[e].words
                guard start + w.count <= keys.count, keys[start..<(start + w.count)].elementsEqual(w) else { continue }
                for list in entries[e].lists { input.listHits[start].append((list, Int32(-(e + 1)), start + w.count)) }
                added = true
            }
            // Stable, so that built-in entries stay before the caller's within a list.
            if added { input.listHits[start] = input.listHits[start].enumerated().sorted { ($0.element.list, $0.offset) < ($1.element.list, $1.offset) }.map(\.element) }
        }
    }

    /// The value of the entry a negative list payload names.
    func value(ofPayload payload: Int32) -> String { entries[Int(-payload) - 1].value }
}
