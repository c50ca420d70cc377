/// Where a slot takes its words from.
enum SlotSource: Sendable {
    /// A list; `literal`: its words rank as literal words.
    case list(Int, literal: Bool)
    /// Free text; `excludeAlone`: words it may not consist of alone (`ListDefinition.Kind.wildcard`).
    case wildcard(maxWords: Int, minWords: Int, exclude: Set<Int32>, excludeAlone: Set<Int32>)
    case recognizer(RecognizerKind)
    /// An expansion rule compiled once and entered here (`CallTable`): the index of the call.
    case call(Int)
}

/// Where a slot takes its words from, as plain values (see `CompiledGrammar.slotPlans`).
struct SlotPlan: Sendable {
    enum Kind: UInt8, Sendable { case list, wildcard, recognizer, call }
    var kind: Kind
    /// The list (`.list`), the call (`.call`).
    var list: Int32 = -1
    var literal = false
    var maxWords: Int32 = 0
    /// The shortest run of words (`.wildcard`, `min_words`).
    var minWords: Int32 = 1
    var recognizer: RecognizerKind = .number

    init(_ source: SlotSource) {
        switch source {
        case let .list(index, literal):
            kind = .list
            list = Int32(index)
            self.literal = literal
        case let .wildcard(maxWords, minWords, _, _):
            kind = .wildcard
            self.maxWords = Int32(maxWords)
            self.minWords = Int32(minWords)
        case let .recognizer(r):
            kind = .recognizer
            recognizer = r
        case let .call(c):
            kind = .call
            list = Int32(c)
        }
    }
}

/// A slot as compiled: `{list:slot}`.
struct SlotRef: Sendable {
    var listName: String
    var slotName: String
    /// nil for `_…` slots, which fill nothing.
    var field: Field?
    var source: SlotSource
    /// The bit of `field` in a path's set of filled fields; 0 for fields that collect values, the release
    /// date (two dates make one range: "the seventies and eighties") and `_` slots.
    var fieldBit: UInt32 {
        guard let field, !field.isList, field != .releaseDate, let index = Field.allCases.firstIndex(of: field) else { return 0 }
        return 1 << UInt32(index)
    }
}

/// One state of the grammar automaton while it is built. Edges consume a word, a list entry, a recognised
/// entity or a run of free words; epsilon edges consume nothing.
struct NFANode: Sendable {
    var words: [Int32: [Int32]] = [:]
    var epsilons: [Int32] = []
    var slots: [SlotEdge] = []
    /// The sentence accepted here, or -1.
    var accept: Int32 = -1
}

/// A state of the compiled automaton, with no epsilon edges: each state carries every consuming edge and
/// every sentence end that its epsilon closure reached, so matching never walks epsilon chains.
struct State: Sendable {
    var words: [Int32: [Int32]] = [:]
    var slots: [SlotEdge] = []
    /// Sentences that end here.
    var accepts: [Int32] = []
    /// The expansion rules this state lies inside (an index into `CompiledGrammar.ruleStacks`), for coverage.
    var ruleStack: Int32 = 0
}

struct SlotEdge: Sendable {
    var slot: Int32
    var target: Int32
}

struct CompiledList: Sendable {
    var name: String
    /// The value of each entry; nil means "the words as said".
    var values: [SlotValue?]
    var locations: [SourceLocation]
}

struct CompiledSentence: Sendable {
    var intent: IntentName
    var text: String
    var location: SourceLocation
    var set: [(Field, SlotValue)]
    /// Set for a modifier (`modifiers:`), which ends a piece around a sentence, not a reading.
    var modifier: ModifierSide? = nil
}

/// A trie over the word IDs of every list entry of every list.
struct ListTrie: Sendable {
    var children: [[Int32: Int32]] = [[:]]
    /// (list, entry) pairs ending at each trie node
    var terminals: [[(list: Int32, entry: Int32)]] = [[]]

    mutating func insert(_ words: [Int32], list: Int32, entry: Int32) {
        var node: Int32 = 0
        for w in words {
            if let next = children[Int(node)][w] {
                node = next
            } else {
                children.append([:])
                terminals.append([])
                let next = Int32(children.count - 1)
                children[Int(node)][w] = next
                node = next
            }
        }
        if !terminals[Int(node)].contains(where: { $0.list == list && $0.entry == entry }) {
            terminals[Int(node)].append((list, entry))
        }
    }
}

/// `ListTrie` frozen into flat tables, for matching (and for reading where a grammar file lies in memory):
/// per node, its children sorted by word (`childStart` ranges of `childWords` / `childNodes`) and the
/// (list, entry) pairs ending there (`terminalStart` ranges of `terminalLists` / `terminalEntries`).
struct FlatTrie: Sendable {
    let childStart: Int32Table
    let childWords: Int32Table
    let childNodes: Int32Table
    let terminalStart: Int32Table
    let terminalLists: Int32Table
    let terminalEntries: Int32Table

    var nodeCount: Int { childStart.count - 1 }

    init(childStart: Int32Table, childWords: Int32Table, childNodes: Int32Table, terminalStart: Int32Table,
         terminalLists: Int32Table, terminalEntries: Int32Table) {
        self.childStart = childStart
        self.childWords = childWords
        self.childNodes = childNodes
        self.terminalStart = terminalStart
        self.terminalLists = terminalLists
        self.terminalEntries = terminalEntries
    }

    init(_ trie: ListTrie) {
        var start: [Int32] = [0], words: [Int32] = [], nodes: [Int32] = []
        var tStart: [Int32] = [0], tLists: [Int32] = [], tEntries: [Int32] = []
        for (children, terminals) in zip(trie.children, trie.terminals) {
            for word in children.keys.sorted() {
                words.append(word)
                nodes.append(children[word]!)
            }
            start.append(Int32(words.count))
            for t in terminals {
                tLists.append(t.list)
                tEntries.append(t.entry)
            }
            tStart.append(Int32(tLists.count))
        }
        self.init(childStart: Int32Table(start), childWords: Int32Table(words), childNodes: Int32Table(nodes),
                  terminalStart: Int32Table(tStart), terminalLists: Int32Table(tLists), terminalEntries: Int32Table(tEntries))
    }

    /// The child of `node` by `word`, or nil.
    @inline(__always)
    func child(_ node: Int32, _ word: Int32) -> Int32? {
        var lo = Int(childStart[Int(node)]), hi = Int(childStart[Int(node) + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            let w = childWords[mid]
            if w == word { return childNodes[mid] }
            if w < word { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    /// The (list, entry) pairs ending at `node`, as a range of `terminalLists` / `terminalEntries`.
    @inline(__always)
    func terminals(_ node: Int32) -> Range<Int> { Int(terminalStart[Int(node)])..<Int(terminalStart[Int(node) + 1]) }
}

/// Expansion rules compiled once, as small automata of their own, and entered from the grammar's automaton by a
/// call edge (a slot whose source is `.call`), where inlining would copy their words into every state they may
/// follow: "in the kitchen", "on Spotify", "for a dinner party" after every way of asking for media. The
/// matcher reads a call's words where a reading stands at it (`Matcher.callReadings`) and adds them to the
/// reading step by step, as if they had been inlined. See `GrammarCompiler.callableRules` for which rules.
struct CallTable: Sendable {
    /// The calls' automaton (determinized like the grammar's): call `c` starts at state `starts[c]`, and a
    /// state that accepts `c` ends it.
    var automaton = Automaton()
    var starts = Int32Table()
    /// The epsilon-free form, kept for grammar coverage, with each state's rule nesting (`ruleStacks`) and
    /// each call's start.
    var nfa = Automaton()
    var nfaRuleStack = Int32Table()
    var nfaStarts = Int32Table()
    /// Per call, the expansion rule it compiles (an index into `ruleNames`).
    var rules = Int32Table()

    var count: Int { rules.count }
}

/// A locale's grammar compiled once into an automaton over word IDs, ready to match many utterances.
///
/// A class: the matcher, the reading builder and the ranking hold it for every parse, and a struct of this
/// many arrays costs a retain and a release of each on every copy (measured: 5 % of English parse time).
/// Filled in while it is compiled or read, never changed once a parser holds it.
final class CompiledGrammar: Sendable {
    let settings: LanguageProfile
    /// The words ICU's spell-out rules wrote for the locale when the grammar was compiled: a parser that
    /// reads the grammar from a file builds its number recogniser from them instead of asking ICU again
    /// (`NumberWords`). The grammar's key holds ICU's version, so they are what this ICU would write.
    let numberWords: NumberWords
    /// What the locale's transliterator made of single characters when the grammar was compiled (nil when the
    /// locale has none): a parser that reads the grammar from a file answers those from here (`TransformTable`).
    let transformTable: TransformTable?
    /// Each word of the grammar's, by its id (edges, lists and tries read ids).
    let wordIDs: [WordKey: Int32]
    /// The epsilon-free automaton (several targets per edge), kept for grammar coverage.
    let nfa: Automaton
    /// Per state of `nfa`, the expansion rules it lies inside (an index into `ruleStacks`).
    let nfaRuleStack: Int32Table
    let start: Int32
    let sentences: [CompiledSentence]
    let slots: [SlotRef]
    let lists: [CompiledList]
    let trie: FlatTrie
    /// Longest list entry, in words.
    let longestEntry: Int
    /// Expansion rules by index, and the distinct nestings of rules that states lie inside.
    let ruleNames: [String]
    let ruleLocations: [SourceLocation]
    let ruleStacks: [[Int32]]
    /// What the matcher runs on: `states` determinized and flattened.
    let automaton: Automaton
    /// Shared expansion rules compiled once (see `CallTable`).
    let calls: CallTable
    /// Per call, its slot (the label of the edges that enter it).
    let callSlots: [Int32]
    /// The calls that may begin with a word, with an entry of a list, or with a recogniser's entity (what the
    /// matcher asks before it reads a call at a position).
    let callsByFirstWord: [Int32: [Int32]]
    let callsByFirstList: [Int32: [Int32]]
    let callsByFirstRecognizer: [(kind: RecognizerKind, call: Int32)]
    /// Per slot, its bit in a path's set of filled fields.
    let slotBits: [UInt32]
    /// Per slot, whether it reads a list (looked up for every capture, so kept apart from `slots`).
    let slotIsList: [Bool]
    /// Per slot, where it takes its words from, in plain values (read for every slot edge of every state
    /// the matcher visits: a `SlotRef` holds strings and a set, and copying one costs a retain and a release
    /// of each).
    let slotPlans: [SlotPlan]
    /// Per slot, the words a wildcard may not take (empty for other slots).
    /// Per slot, the words its free text may not hold, as a bit per word ID (empty when none): tested for
    /// every word a free text takes, where a hash set's lookup cost a twentieth of matching.
    let slotExclusions: [[UInt64]]
    /// Per slot, a bitset over word IDs of the words its free text may not consist of alone; empty when none.
    let slotAloneExclusions: [[UInt64]]
    /// The states where the modifier layer starts (`modifiers:` before and after), -1 when there is none.
    /// They are states of `automaton` (and, with the same numbers, of `nfa`), apart from the sentences.
    let beforeStart: Int32
    let afterStart: Int32
    /// Per sentence: is it a modifier, and which side (read for every accepting state, so kept flat).
    let sentenceModifier: [ModifierSide?]
    /// Per state of `automaton`: where a reading may go on without reading a word once the state accepts
    /// (the modifier layer's starts: after a sentence or a modifier after it, the layer after; after a
    /// modifier before it, the sentences' start and the layer before). Empty for most states. Flat: the
    /// states of state `s` are `continuationList[continuationStart[s]..<continuationStart[s + 1]]`.
    let continuationStart: Int32Table
    let continuationList: Int32Table
    /// The words of the grammar's own phrasing: template words of media sentences and modifiers, and words
    /// of `literal: true` lists they use. Not the words of NotMedia sentences alone ("chess", "go fish",
    /// "weather": the topics of other requests, which titles may well be made of), not data lists.
    let phrasingWordIDs: [Int32]
    /// Template words of NotMedia sentences that no media sentence uses (kept apart so that their weight
    /// can be set on its own; today they weigh as much as phrasing words, see `init`).
    let notMediaWordIDs: [Int32]
    /// Per word ID, what taking it into free text costs, in halves of `Rank.phrasingInFreeText`: 2 for a
    /// word of the grammar's templates or literal lists, 0 for the rest (read for every token of every parse).
    let phrasingWeight: [UInt8]

    /// - Parameter continuations: `continuationStart` and `continuationList` as a grammar file holds them;
    ///   nil computes them from the automaton.
    init(settings: LanguageProfile, numberWords: NumberWords, transformTable: TransformTable? = nil, wordIDs: [WordKey: Int32], nfa: Automaton, nfaRuleStack: Int32Table, start: Int32,
         sentences: [CompiledSentence], slots: [SlotRef], lists: [CompiledList], trie: FlatTrie, longestEntry: Int,
         ruleNames: [String], ruleLocations: [SourceLocation], ruleStacks: [[Int32]], automaton: Automaton,
         beforeStart: Int32 = -1, afterStart: Int32 = -1, phrasingWordIDs: [Int32] = [], notMediaWordIDs: [Int32] = [],
         calls: CallTable = CallTable(), continuations: (start: Int32Table, list: Int32Table)? = nil) {
        self.settings = settings
        self.numberWords = numberWords
        self.transformTable = transformTable
        self.wordIDs = wordIDs
        self.nfa = nfa
        self.nfaRuleStack = nfaRuleStack
        self.start = start
        self.sentences = sentences
        self.slots = slots
        self.lists = lists
        self.trie = trie
        self.longestEntry = longestEntry
        self.ruleNames = ruleNames
        self.ruleLocations = ruleLocations
        self.ruleStacks = ruleStacks
        self.automaton = automaton
        self.calls = calls
        var callSlots = [Int32](repeating: -1, count: calls.count)
        for (i, slot) in slots.enumerated() {
            if case let .call(c) = slot.source, c < callSlots.count { callSlots[c] = Int32(i) }
        }
        self.callSlots = callSlots
        var byWord: [Int32: [Int32]] = [:], byList: [Int32: [Int32]] = [:]
        var byRecognizer: [(kind: RecognizerKind, call: Int32)] = []
        for c in 0..<calls.count {
            let start = calls.starts[c], a = calls.automaton
            for k in Int(a.wordStart[Int(start)])..<Int(a.wordStart[Int(start) + 1]) { byWord[a.wordKeys[k], default: []].append(Int32(c)) }
            for e in a.slotEdges(start) {
                switch slots[Int(a.slotIDs[e])].source {
                case let .list(list, _): byList[Int32(list), default: []].append(Int32(c))
                case let .recognizer(kind): byRecognizer.append((kind, Int32(c)))
                case .wildcard, .call: break
                }
            }
        }
        callsByFirstWord = byWord
        callsByFirstList = byList
        callsByFirstRecognizer = byRecognizer
        slotBits = slots.map(\.fieldBit)
        slotIsList = slots.map { if case .list = $0.source { true } else { false } }
        slotPlans = slots.map { SlotPlan($0.source) }
        func bitset(_ ids: Set<Int32>) -> [UInt64] {
            guard !ids.isEmpty else { return [] }
            var bits = [UInt64](repeating: 0, count: (wordIDs.count + 63) / 64 + 1)
            for id in ids where id >= 0 { bits[Int(id) >> 6] |= 1 << UInt64(id & 63) }
            return bits
        }
        slotExclusions = slots.map { slot in
            guard case let .wildcard(_, _, exclude, _) = slot.source else { return [] }
            return bitset(exclude)
        }
        slotAloneExclusions = slots.map { slot in
            guard case let .wildcard(_, _, _, alone) = slot.source else { return [] }
            return bitset(alone)
        }
        self.beforeStart = beforeStart
        self.afterStart = afterStart
        sentenceModifier = sentences.map(\.modifier)
        let layer = continuations ?? Self.continuations(in: automaton, sentenceModifier: sentenceModifier,
                                                        beforeStart: beforeStart, afterStart: afterStart)
        continuationStart = layer.start
        continuationList = layer.list
        self.phrasingWordIDs = phrasingWordIDs
        self.notMediaWordIDs = notMediaWordIDs
        var weight = [UInt8](repeating: 0, count: wordIDs.count)
        // NotMedia words count in full: weighted at half, 10 near-misses of the corpus in five languages
        // became media requests ("add this photo to my vacation album": "photo" went into a name).
        for w in notMediaWordIDs where w >= 0 && Int(w) < weight.count { weight[Int(w)] = 2 }
        for w in phrasingWordIDs where w >= 0 && Int(w) < weight.count { weight[Int(w)] = 2 }
        phrasingWeight = weight
    }

    /// The states a reading may go on to from `state` without reading a word (see `continuationStart`).
    @inline(__always)
    func layerContinuations(_ state: Int32) -> Int32Table.SubSequence {
        continuationList[Int(continuationStart[Int(state)])..<Int(continuationStart[Int(state) + 1])]
    }

    /// See `continuationStart`.
    private static func continuations(in automaton: Automaton, sentenceModifier: [ModifierSide?],
                                      beforeStart: Int32, afterStart: Int32) -> (start: Int32Table, list: Int32Table) {
        var start: [Int32] = [0], list: [Int32] = []
        start.reserveCapacity(automaton.count + 1)
        for state in 0..<automaton.count {
            if beforeStart >= 0 || afterStart >= 0 {
                for a in automaton.acceptRange(Int32(state)) {
                    switch sentenceModifier[Int(automaton.accepts[a])] {
                    case .before?: list += [0, beforeStart]
                    case .after?, nil: if afterStart >= 0 { list.append(afterStart) }
                    }
                }
            }
            start.append(Int32(list.count))
        }
        return (Int32Table(start), Int32Table(list))
    }

    /// Per state of `automaton`: does it belong to the modifier layer? (For coverage, which leaves the
    /// layer's states out; computed when asked, walking the whole automaton.)
    var isModifierState: [Bool] {
        modifierStates.withLock { known in
            if let states = known { return states }
            let states = Self.reachable(in: automaton, from: [beforeStart, afterStart].filter { $0 >= 0 })
            known = states
            return states
        }
    }
    private let modifierStates = Locked<[Bool]?>(nil)

    /// The states reachable from `starts` (the modifier layer: no edge leads from it into the sentences).
    private static func reachable(in automaton: Automaton, from starts: [Int32]) -> [Bool] {
        var seen = [Bool](repeating: false, count: automaton.count)
        var stack = starts
        for s in starts { seen[Int(s)] = true }
        while let u = stack.popLast() {
            var next: [Int32] = []
            for k in Int(automaton.wordStart[Int(u)])..<Int(automaton.wordStart[Int(u) + 1]) {
                for t in automaton.edgeTargets(k) { next.append(automaton.targets[t]) }
            }
            for e in automaton.slotEdges(u) { for t in automaton.slotTargets(e) { next.append(automaton.slotTargetList[t]) } }
            for t in next where !seen[Int(t)] {
                seen[Int(t)] = true
                stack.append(t)
            }
        }
        return seen
    }

    /// The epsilon-free states a reading passed through, for grammar coverage: the states of `states`
    /// reached after each step (a forward pass over the reading's words and slots), kept where they lie on
    /// a path that ends by accepting `sentence` (a backward pass). A call's steps count as one step, its slot.
    func epsilonFreeStates(along chain: [Step], sentence: Int32, wordIDs: [Int32]) -> [Int32] {
        Self.states(of: nfa, from: start, along: chain, accepting: sentence, wordIDs: wordIDs)
    }

    /// The same for the steps of call `call`, in the calls' epsilon-free automaton.
    func callStates(along chain: [Step], call: Int, wordIDs: [Int32]) -> [Int32] {
        Self.states(of: calls.nfa, from: calls.nfaStarts[call], along: chain, accepting: Int32(call), wordIDs: wordIDs)
    }

    private static func states(of nfa: Automaton, from start: Int32, along chain: [Step], accepting sentence: Int32,
                               wordIDs: [Int32]) -> [Int32] {
        func moves(_ s: Int32, _ step: Step) -> [Int32] {
            if step.slot == StepKind.skipped || step.slot == StepKind.extra { return [s] }
            if step.slot == StepKind.assumed { return nfa.wordTargets(s, step.payload).map { nfa.targets[$0] } }
            if step.slot < 0 { return nfa.wordTargets(s, wordIDs[Int(step.start)]).map { nfa.targets[$0] } }
            return nfa.slotEdges(s).filter { nfa.slotIDs[$0] == step.slot }.flatMap { nfa.slotTargets($0).map { nfa.slotTargetList[$0] } }
        }
        func accepts(_ s: Int32) -> Bool { nfa.acceptRange(s).contains { nfa.accepts[$0] == sentence } }
        var reached: [[Int32]] = [[start]]
        for step in chain {
            var next = Set<Int32>()
            for s in reached.last! { next.formUnion(moves(s, step)) }
            reached.append(next.sorted())
        }
        var current = Set(reached.last!.filter(accepts))
        var found: [Int32] = []
        for i in stride(from: chain.count, to: 0, by: -1) {
            found.append(contentsOf: current.sorted())
            current = Set(reached[i - 1].filter { s in moves(s, chain[i - 1]).contains(where: current.contains) })
        }
        return found
    }
}

/// Builds a `CompiledGrammar` from a `GrammarDefinition` (Thompson's construction, rules inlined).
struct GrammarCompiler {
    private let definition: GrammarDefinition
    private var wordIDs: [String: Int32] = [:]
    private var nodes: [NFANode] = [NFANode()]
    private var slots: [SlotRef] = []
    private var slotIndex: [String: Int32] = [:]
    private var lists: [CompiledList] = []
    private var listIndex: [String: Int] = [:]
    private var trie = ListTrie()
    private var longestEntry = 0
    private var ruleStack: [String] = []
    /// For each node, the interned stack of rules it was created inside.
    private var nodeRuleStack: [Int32] = [0]
    private var ruleStackIDs: [[Int32]: Int32] = [[]: 0]
    private var ruleStacks: [[Int32]] = [[]]
    private var currentRuleStack: Int32 = 0
    private var ruleIndex: [String: Int32] = [:]
    private var emptyRules: [String: Bool] = [:]
    /// While a NotMedia sentence is compiled: its words are not the grammar's phrasing (see
    /// `CompiledGrammar.phrasingWordIDs`).
    private var inNotMedia = false
    private var phrasingWords = Set<Int32>()
    private var notMediaWords = Set<Int32>()
    private var phrasingLists = Set<Int>()
    private var notMediaLists = Set<Int>()
    /// The rules entered by a call (`callableRules`), those compiled so far (states per call, their words
    /// and literal lists for `phrasingWordIDs`, their rule), and whether a call's body is being compiled
    /// (inside one, every rule is inlined).
    private var callable = Set<String>()
    private var callIndex: [String: Int] = [:]
    private var callStates: [[State]] = []
    private var callWords: [(words: Set<Int32>, lists: Set<Int>)] = []
    private var callRules: [Int32] = []
    private var insideCall = false

    init(_ definition: GrammarDefinition) {
        self.definition = definition
    }

    /// - Parameters:
    ///   - determinize: false keeps the epsilon-free automaton as the one to match with (tests compare the two).
    ///   - calls: false inlines every expansion rule (tests compare the two).
    ///   - numberWords: what ICU's spell-out rules write for the locale, kept with the grammar (see
    ///     `CompiledGrammar.numberWords`).
    ///   - transformTable: what the locale's transliterator makes of single characters, kept likewise.
    static func compile(_ definition: GrammarDefinition, numberWords: NumberWords, transformTable: TransformTable? = nil,
                        determinize: Bool = true, calls: Bool = true) throws -> CompiledGrammar {
        var compiler = GrammarCompiler(definition)
        // A call's words are read apart from the reading that enters it, which rules out the tolerance that
        // depends on the words around (an optional word assumed, an extra word between matched words).
        if calls, definition.settings.optionalWords.isEmpty, definition.settings.extraWords == 0 {
            compiler.callable = callableRules(definition)
        }
        return try compiler.run(determinize: determinize, numberWords: numberWords, transformTable: transformTable)
    }

    /// Rules smaller than this (words and slots, counted with the rules they use written out) are copied where
    /// they are used: a copy of "the|my" costs less than a call.
    static let minimumCallSize = 6

    /// The expansion rules compiled once and entered by a call (`CallTable`) instead of copied into every
    /// place that uses them: rules used in more than one place, that say at least one word, that hold no free
    /// text (a call's words are read on their own, while where free text may end depends on what follows),
    /// and that are at least `minimumCallSize` words and slots long.
    static func callableRules(_ definition: GrammarDefinition) -> Set<String> {
        var uses: [String: Int] = [:]
        func count(_ node: TemplateNode) {
            switch node {
            case .word, .slot: break
            case let .sequence(items), let .alternatives(items): items.forEach(count)
            case let .rule(name, _): uses[name, default: 0] += 1
            case let .repetition(body, _, _): count(body)
            }
        }
        definition.sentences.forEach { count($0.template) }
        definition.modifiers.forEach { count($0.template) }
        definition.rules.values.forEach { count($0.template) }
        var size: [String: Int] = [:], freeText: [String: Bool] = [:]
        func measure(_ node: TemplateNode) -> (size: Int, freeText: Bool) {
            switch node {
            case .word: return (1, false)
            case let .slot(list, _, _):
                if case .wildcard? = definition.lists[list]?.kind { return (1, true) }
                return (1, false)
            case let .sequence(items), let .alternatives(items):
                return items.map(measure).reduce((0, false)) { ($0.0 + $1.0, $0.1 || $1.1) }
            case let .repetition(body, _, _): return measure(body)
            case let .rule(name, _):
                if let known = size[name] { return (known, freeText[name]!) }
                size[name] = 0
                freeText[name] = false  // a cycle: compile() reports it
                guard let rule = definition.rules[name] else { return (0, false) }
                let m = measure(rule.template)
                size[name] = m.size
                freeText[name] = m.freeText
                return m
            }
        }
        var empty: [String: Bool] = [:]
        return Set(uses.filter { name, n in
            guard n > 1, definition.rules[name] != nil else { return false }
            let m = measure(.rule(name, SourceLocation(file: "?")))
            return !m.freeText && m.size >= minimumCallSize && !ruleMatchesEmpty(name, rules: definition.rules, known: &empty)
        }.keys)
    }

    private mutating func run(determinize: Bool, numberWords: NumberWords, transformTable: TransformTable?) throws -> CompiledGrammar {
        // Lists first, in name order, so IDs do not depend on dictionary order.
        for name in definition.lists.keys.sorted() {
            try compileList(definition.lists[name]!)
        }
        var sentences: [CompiledSentence] = []
        for sentence in definition.sentences {
            inNotMedia = sentence.intent == .notMedia
            defer { inNotMedia = false }
            let end = try compile(sentence.template, from: 0)
            let accept = newNode()
            nodes[Int(end)].epsilons.append(accept)
            nodes[Int(accept)].accept = Int32(sentences.count)
            sentences.append(CompiledSentence(intent: sentence.intent, text: sentence.text, location: sentence.location,
                                              set: sentence.set))
        }
        // The modifier layer: each side starts at a node of its own, apart from the sentences' start (0).
        var layerStarts: [ModifierSide: Int32] = [:]
        for side in ModifierSide.allCases {
            let pieces = definition.modifiers.filter { $0.side == side }
            guard !pieces.isEmpty else { continue }
            let start = newNode()
            layerStarts[side] = start
            for piece in pieces {
                if Self.matchesEmpty(piece.template, rules: definition.rules, known: &emptyRules) {
                    throw GrammarError("a modifier must say at least one word (this one can match none)", at: piece.location)
                }
                let end = try compile(piece.template, from: start)
                let accept = newNode()
                nodes[Int(end)].epsilons.append(accept)
                nodes[Int(accept)].accept = Int32(sentences.count)
                sentences.append(CompiledSentence(intent: .notMedia, text: piece.text, location: piece.location, set: [],
                                                  modifier: side))
            }
        }
        let extraStarts = ModifierSide.allCases.compactMap { layerStarts[$0] }
        let states = removeEpsilons(extraStarts: extraStarts)
        let nfa = Automaton(nondeterministic: states)
        var classes: [String: Int32] = [:]
        let sentenceClass = sentences.enumerated().map { i, s -> Int32 in
            // Which modifier of a side ended makes no difference to what may follow: one class per side.
            let key = s.modifier.map { "modifier \($0)" }
                ?? "\(s.intent)|" + s.set.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: "|")
            if let c = classes[key] { return c }
            classes[key] = Int32(i)
            return Int32(i)
        }
        // The layer's starts are states 1 and 2 (in side order) of both automata.
        let starts: [Int32] = [0] + extraStarts.indices.map { Int32($0 + 1) }
        let automaton = (determinize ? Automaton(determinizing: nfa, starts: starts, sentenceClass: sentenceClass) : nil) ?? nfa
        func layerState(_ side: ModifierSide) -> Int32 {
            guard let node = layerStarts[side], let i = extraStarts.firstIndex(of: node) else { return -1 }
            return Int32(i + 1)
        }
        var names = [String](repeating: "", count: ruleIndex.count)
        for (name, i) in ruleIndex { names[Int(i)] = name }
        var callTable = CallTable()
        if !callStates.isEmpty {
            // Every call's states in one automaton, call after call.
            var all: [State] = []
            var bases: [Int32] = []
            for states in callStates {
                let base = Int32(all.count)
                bases.append(base)
                for var state in states {
                    state.words = state.words.mapValues { $0.map { $0 + base } }
                    state.slots = state.slots.map { SlotEdge(slot: $0.slot, target: $0.target + base) }
                    all.append(state)
                }
            }
            let callNFA = Automaton(nondeterministic: all)
            callTable.nfa = callNFA
            callTable.nfaRuleStack = Int32Table(all.map(\.ruleStack))
            callTable.nfaStarts = Int32Table(bases)
            callTable.rules = Int32Table(callRules)
            if determinize, let d = Automaton(determinizing: callNFA, starts: bases,
                                              sentenceClass: callStates.indices.map { Int32($0) }) {
                callTable.automaton = d
                callTable.starts = Int32Table(callStates.indices.map { Int32($0) })
            } else {
                callTable.automaton = callNFA
                callTable.starts = Int32Table(bases)
            }
        }
        return CompiledGrammar(settings: definition.settings, numberWords: numberWords, transformTable: transformTable,
                               wordIDs: Dictionary(uniqueKeysWithValues: wordIDs.map { (WordKey($0.key), $0.value) }), nfa: nfa,
                               nfaRuleStack: Int32Table(states.map(\.ruleStack)), start: 0,
                               sentences: sentences, slots: slots, lists: lists, trie: FlatTrie(trie), longestEntry: longestEntry,
                               ruleNames: names,
                               ruleLocations: names.map { definition.rules[$0]?.location ?? SourceLocation(file: "?") },
                               ruleStacks: ruleStacks, automaton: automaton,
                               beforeStart: layerState(.before), afterStart: layerState(.after),
                               phrasingWordIDs: words(phrasingWords, of: phrasingLists),
                               notMediaWordIDs: words(notMediaWords, of: notMediaLists), calls: callTable)
    }

    /// Where an edge into `n` may as well lead: past states whose only way on is one epsilon edge. All
    /// the branches of an alternation end in such states, so forwarding makes them share the state where
    /// the branches join, and its epsilon closure is computed (and stored) once instead of once per branch.
    private func forwarded(_ start: Int32) -> Int32 {
        var n = start
        var steps = 0
        while steps < nodes.count {
            let node = nodes[Int(n)]
            guard node.words.isEmpty, node.slots.isEmpty, node.accept < 0, node.epsilons.count == 1 else { break }
            n = node.epsilons[0]
            steps += 1
        }
        return n
    }

    /// The epsilon-free automaton: only the start and the targets of consuming edges remain as states.
    /// Template words and the words of the literal lists `lists` (walked in the trie: a node's word belongs
    /// to such a list when an entry of one ends at or below it), sorted.
    private func words(_ templateWords: Set<Int32>, of lists: Set<Int>) -> [Int32] {
        var own = templateWords
        if !lists.isEmpty {
            func visit(_ node: Int) -> Bool {
                var found = trie.terminals[node].contains { lists.contains(Int($0.list)) }
                for (word, child) in trie.children[node] where visit(Int(child)) {
                    found = true
                    own.insert(word)
                }
                return found
            }
            _ = visit(0)
        }
        return own.sorted()
    }

    /// `extraStarts` (the modifier layer's starts) are kept as states 1, 2 … right after the start.
    private func removeEpsilons(extraStarts: [Int32] = []) -> [State] {
        var forward = [Int32](repeating: -1, count: nodes.count)
        func target(_ n: Int32) -> Int32 {
            if forward[Int(n)] < 0 { forward[Int(n)] = forwarded(n) }
            return forward[Int(n)]
        }
        var newID = [Int32](repeating: -1, count: nodes.count)
        var kept: [Int32] = [0]
        newID[0] = 0
        for start in extraStarts {
            newID[Int(start)] = Int32(kept.count)
            kept.append(start)
        }
        func keep(_ n: Int32) {
            let t = target(n)
            if newID[Int(t)] < 0 {
                newID[Int(t)] = Int32(kept.count)
                kept.append(t)
            }
        }
        for node in nodes {
            for w in node.words.keys.sorted() { node.words[w]!.forEach(keep) }
            node.slots.forEach { keep($0.target) }
        }
        var seen = [Int32](repeating: -1, count: nodes.count)  // generation stamps
        var stack: [Int32] = []
        var states: [State] = []
        states.reserveCapacity(kept.count)
        for (index, origin) in kept.enumerated() {
            var state = State()
            var seenWordTargets = Set<Int64>()
            var seenSlots = Set<Int64>()
            stack.append(origin)
            seen[Int(origin)] = Int32(index)
            while let u = stack.popLast() {
                let node = nodes[Int(u)]
                if node.accept >= 0, !state.accepts.contains(node.accept) { state.accepts.append(node.accept) }
                for (w, targets) in node.words {
                    for t in targets {
                        let id = newID[Int(target(t))]
                        if seenWordTargets.insert(Int64(w) << 32 | Int64(id)).inserted { state.words[w, default: []].append(id) }
                    }
                }
                for e in node.slots {
                    let id = newID[Int(target(e.target))]
                    if seenSlots.insert(Int64(e.slot) << 32 | Int64(id)).inserted {
                        state.slots.append(SlotEdge(slot: e.slot, target: id))
                    }
                }
                // Reverse, so that the first epsilon is explored first (edge order decides ties).
                for v in node.epsilons.reversed() where seen[Int(v)] != Int32(index) {
                    seen[Int(v)] = Int32(index)
                    stack.append(v)
                }
            }
            state.accepts.sort()
            state.ruleStack = nodeRuleStack[Int(origin)]
            states.append(state)
        }
        return states
    }

    private mutating func wordID(_ word: String) -> Int32 {
        if let id = wordIDs[word] { return id }
        let id = Int32(wordIDs.count)
        wordIDs[word] = id
        return id
    }

    private mutating func newNode() -> Int32 {
        nodes.append(NFANode())
        nodeRuleStack.append(currentRuleStack)
        return Int32(nodes.count - 1)
    }

    /// Enters or leaves a rule for the nodes created next (coverage bookkeeping).
    private mutating func setRuleStack(_ names: [String]) {
        let ids = names.map { name -> Int32 in
            if let i = ruleIndex[name] { return i }
            let i = Int32(ruleIndex.count)
            ruleIndex[name] = i
            return i
        }
        if let id = ruleStackIDs[ids] {
            currentRuleStack = id
        } else {
            currentRuleStack = Int32(ruleStacks.count)
            ruleStacks.append(ids)
            ruleStackIDs[ids] = currentRuleStack
        }
    }

    private mutating func compileList(_ list: ListDefinition) throws {
        guard case let .values(entries, _) = list.kind else { return }
        let index = lists.count
        listIndex[list.name] = index
        var compiled = CompiledList(name: list.name, values: [], locations: [])
        for (e, entry) in entries.enumerated() {
            // `expansions()` is non-nil: the loader checked it.
            for words in entry.spoken.expansions() ?? [] where !words.isEmpty {
                trie.insert(words.map { wordID($0) }, list: Int32(index), entry: Int32(e))
                longestEntry = max(longestEntry, words.count)
            }
            compiled.values.append(entry.value)
            compiled.locations.append(entry.location)
        }
        lists.append(compiled)
    }

    private mutating func slotRef(list: String, slot: String, at location: SourceLocation) throws -> Int32 {
        let key = "\(list):\(slot)"
        if let id = slotIndex[key] { return id }
        var field: Field? = nil
        if !slot.hasPrefix("_") {
            guard let f = Field(rawValue: slot) else {
                throw GrammarError("unknown slot '\(slot)' in {\(list):\(slot)}; a slot is a field name (\(Field.allCases.map(\.rawValue).joined(separator: ", "))) or starts with _",
                                   at: location)
            }
            field = f
        }
        let source: SlotSource
        if let kind = RecognizerKind(rawValue: list) {
            if let field, field.kind != kind.valueKind {
                throw GrammarError("{\(list)} gives a \(kind.valueKind) value but \(field.rawValue) takes a \(field.kind) value", at: location)
            }
            source = .recognizer(kind)
        } else if let definition = definition.lists[list] {
            switch definition.kind {
            case let .wildcard(maxWords, minWords, exclude, alone):
                if let field, field.kind != .text {
                    throw GrammarError("the free-text list {\(list)} cannot fill \(field.rawValue), which takes a \(field.kind) value", at: location)
                }
                source = .wildcard(maxWords: maxWords, minWords: minWords, exclude: Set(exclude.map { wordID($0) }),
                                   excludeAlone: Set(alone.map { wordID($0) }))
            case let .values(_, literal):
                let index = listIndex[list]!
                if let field {
                    for (value, loc) in zip(lists[index].values, lists[index].locations) {
                        if let value {
                            try GrammarLoader.check(value, for: field, at: loc)
                        } else if field.kind != .text {
                            throw GrammarError("this value of {\(list)} has no `out`, but \(field.rawValue) (used at \(location)) needs a \(field.kind) value", at: loc)
                        }
                    }
                }
                source = .list(index, literal: literal)
            }
        } else {
            let known = (definition.lists.keys.sorted() + RecognizerKind.allCases.map(\.rawValue)).joined(separator: ", ")
            throw GrammarError("unknown list {\(list)}; known lists: \(known)", at: location)
        }
        let id = Int32(slots.count)
        slots.append(SlotRef(listName: list, slotName: slot, field: field, source: source))
        slotIndex[key] = id
        return id
    }

    /// Can rule `name` match no words? Memoised in `known`; a cycle counts as non-empty here (compile()
    /// reports cycles). Static, so that asking never copies the compiler's (large) state.
    private static func ruleMatchesEmpty(_ name: String, rules: [String: RuleDefinition], known: inout [String: Bool]) -> Bool {
        if let k = known[name] { return k }
        known[name] = false
        guard let rule = rules[name] else { return false }
        let result = matchesEmpty(rule.template, rules: rules, known: &known)
        known[name] = result
        return result
    }

    private static func matchesEmpty(_ node: TemplateNode, rules: [String: RuleDefinition], known: inout [String: Bool]) -> Bool {
        var memo = known
        let result = node.matchesEmpty { ruleMatchesEmpty($0, rules: rules, known: &memo) }
        known = memo
        return result
    }

    /// A call of rule `name` from state `from` (see `CallTable`); returns the state where it ends. The rule's
    /// words count as the grammar's phrasing (or a NotMedia sentence's) as if it were written out here.
    private mutating func enterCall(_ name: String, _ rule: RuleDefinition, from: Int32) throws -> Int32 {
        let c = try callNumber(name, rule)
        if inNotMedia {
            notMediaWords.formUnion(callWords[c].words)
            notMediaLists.formUnion(callWords[c].lists)
        } else {
            phrasingWords.formUnion(callWords[c].words)
            phrasingLists.formUnion(callWords[c].lists)
        }
        let key = "<\(name)>:call"
        let ref: Int32
        if let known = slotIndex[key] {
            ref = known
        } else {
            ref = Int32(slots.count)
            slots.append(SlotRef(listName: "<\(name)>", slotName: "_call", field: nil, source: .call(c)))
            slotIndex[key] = ref
        }
        let target = newNode()
        nodes[Int(from)].slots.append(SlotEdge(slot: ref, target: target))
        return target
    }

    /// The call of rule `name`, its body compiled (once) into states of its own.
    private mutating func callNumber(_ name: String, _ rule: RuleDefinition) throws -> Int {
        if let c = callIndex[name] { return c }
        let saved = (nodes, nodeRuleStack, ruleStack, currentRuleStack, inNotMedia)
        let savedWords = (phrasingWords, phrasingLists, notMediaWords, notMediaLists)
        nodes = [NFANode()]
        ruleStack = [name]
        setRuleStack(ruleStack)
        nodeRuleStack = [currentRuleStack]
        (phrasingWords, phrasingLists, notMediaWords, notMediaLists) = ([], [], [], [])
        inNotMedia = false
        insideCall = true
        let end = try compile(rule.template, from: 0)
        let c = callStates.count
        let accept = newNode()
        nodes[Int(end)].epsilons.append(accept)
        nodes[Int(accept)].accept = Int32(c)
        callStates.append(removeEpsilons())
        callWords.append((phrasingWords, phrasingLists))
        callRules.append(ruleIndex[name]!)
        insideCall = false
        (nodes, nodeRuleStack, ruleStack, currentRuleStack, inNotMedia) = saved
        (phrasingWords, phrasingLists, notMediaWords, notMediaLists) = savedWords
        callIndex[name] = c
        return c
    }

    /// Adds `node` starting at state `from`; returns the state where it ends.
    private mutating func compile(_ node: TemplateNode, from: Int32) throws -> Int32 {
        switch node {
        case let .word(w):
            let id = wordID(w)
            if inNotMedia { notMediaWords.insert(id) } else { phrasingWords.insert(id) }
            let target = newNode()
            nodes[Int(from)].words[id, default: []].append(target)
            return target
        case let .sequence(items):
            var at = from
            for item in items { at = try compile(item, from: at) }
            return at
        case let .alternatives(items):
            let end = newNode()
            for item in items {
                let start = newNode()
                nodes[Int(from)].epsilons.append(start)
                let e = try compile(item, from: start)
                nodes[Int(e)].epsilons.append(end)
            }
            return end
        case let .rule(name, location):
            guard let rule = definition.rules[name] else {
                throw GrammarError("unknown rule <\(name)>; known rules: \(definition.rules.keys.sorted().joined(separator: ", "))",
                                   at: location)
            }
            if ruleStack.contains(name) {
                throw GrammarError("rule <\(name)> refers to itself: \((ruleStack + [name]).map { "<\($0)>" }.joined(separator: " -> "))",
                                   at: location)
            }
            if !insideCall, callable.contains(name) { return try enterCall(name, rule, from: from) }
            ruleStack.append(name)
            setRuleStack(ruleStack)
            defer {
                ruleStack.removeLast()
                setRuleStack(ruleStack)
            }
            let start = newNode()
            nodes[Int(from)].epsilons.append(start)
            return try compile(rule.template, from: start)
        case let .slot(list, slot, location):
            let ref = try slotRef(list: list, slot: slot, at: location)
            if case let .list(index, literal: true) = slots[Int(ref)].source {
                if inNotMedia { notMediaLists.insert(index) } else { phrasingLists.insert(index) }
            }
            let target = newNode()
            nodes[Int(from)].slots.append(SlotEdge(slot: ref, target: target))
            return target
        case let .repetition(body, atLeastOne, location):
            if Self.matchesEmpty(body, rules: definition.rules, known: &emptyRules) {
                throw GrammarError("'\(atLeastOne ? "+" : "*")' repeats something that can match no words", at: location)
            }
            let loop = newNode()
            nodes[Int(from)].epsilons.append(loop)
            let bodyEnd = try compile(body, from: loop)
            nodes[Int(bodyEnd)].epsilons.append(loop)
            let end = newNode()
            nodes[Int(atLeastOne ? bodyEnd : loop)].epsilons.append(end)
            return end
        }
    }
}
