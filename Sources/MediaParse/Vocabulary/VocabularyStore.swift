import Dispatch
import Foundation

/// The vocabulary the parser knows beside its grammar: the user's strings and the app's global items, indexed
/// for look-up in utterances.
///
/// Any thread may change the store while others look up: changes are made under a lock, and a look-up
/// reads one consistent `VocabularySnapshot` (taking one is cheap; keep it for the whole parse of an
/// utterance). Phrases are normalised (see `VocabularyNormalizer`) before the lock is taken, so a large
/// load does not hold up look-ups.
///
/// ```swift
/// let store = try VocabularyStore(locale: "en-US")
/// store.setUserVocabulary(try UserVocabulary(contentsOfFile: "user-vocabulary.json"))
/// store.loadGlobal(try GlobalVocabulary(contentsOfFile: "AppIntentVocabulary.plist"))
/// let best = VocabularyHit.nonOverlapping(store.hits(in: "put on some '70s punk classics"))
/// ```
public final class VocabularyStore: Sendable {
    /// The locale phrases are read in, BCP 47 ("en-US").
    public let locale: String
    let normalizer: VocabularyNormalizer
    let pool: ICUSessionPool
    private let state = Locked(VocabularyState())

    /// An empty store reading phrases as `locale`'s grammar reads utterances (its clitics and number words).
    ///
    /// - Throws: `UnsupportedLocaleError` when no grammar serves the locale; `GrammarError` when its
    ///   `locale.yaml` is wrong.
    public convenience init(locale: String = "en-US", catalog: GrammarCatalog = .builtIn) throws {
        self.init(runtime: try LanguageRuntime.load(locale: locale, catalog: catalog).runtime)
    }

    /// A store sharing a parser's text pieces, so phrases and utterances are read the same way.
    init(runtime: LanguageRuntime) {
        self.locale = runtime.profile.name
        self.pool = runtime.pool
        self.normalizer = VocabularyNormalizer(tokenizer: runtime.tokenizer, numbers: runtime.numbers)
    }

    // MARK: Reading

    /// What the store holds now; later changes do not touch it.
    public func snapshot() -> VocabularySnapshot {
        VocabularySnapshot(state: state.withLock { $0 }, normalizer: normalizer)
    }

    /// Every vocabulary match in `tokens` (tokenized with the same tokenizer as the store's), from one
    /// snapshot. See `VocabularySnapshot.hits(in:entities:session:)`.
    func hits(in tokens: [Token], entities: [Entity]? = nil, session: ICUSession) -> [VocabularyHit] {
        snapshot().hits(in: tokens, entities: entities, session: session)
    }

    /// Every vocabulary match in `text`; token ranges count the words of `text` as the parser's tokenizer
    /// cuts them (punctuation is not a word).
    public func hits(in text: String) -> [VocabularyHit] {
        let snapshot = snapshot()
        return pool.withSession { session in
            snapshot.hits(in: normalizer.tokenizer.tokenize(text, session: session).tokens, session: session)
        }
    }

    /// The user's ordered set of `type`, most important first.
    public func userPhrases(of type: VocabularyType) -> [String] { snapshot().userPhrases(of: type) }

    /// How many user strings and global synonyms the store holds.
    public var count: (user: Int, global: Int) { snapshot().count }

    /// A snapshot holding `vocabulary` as its only entries (the store is not touched): one request's own
    /// user vocabulary, read the way the store reads phrases.
    func userOnlySnapshot(_ vocabulary: UserVocabulary) -> VocabularySnapshot {
        let types = VocabularyType.allCases
        let phrases = types.map { vocabulary.phrases[$0] ?? [] }
        let keys = canonicalKeys(of: phrases.flatMap { $0 })
        var state = VocabularyState()
        var k = 0
        for (type, set) in zip(types, phrases) where !set.isEmpty {
            state.setUser(type, phrases: set, keys: Array(keys[k..<k + set.count]))
            k += set.count
        }
        return VocabularySnapshot(state: state, normalizer: normalizer)
    }

    // MARK: User vocabulary

    /// Replaces the whole user vocabulary (types `vocabulary` does not name are emptied).
    public func setUserVocabulary(_ vocabulary: UserVocabulary) {
        let types = VocabularyType.allCases
        let phrases = types.map { vocabulary.phrases[$0] ?? [] }
        let keys = canonicalKeys(of: phrases.flatMap { $0 })
        state.withLock { state in
            var k = 0
            for (type, set) in zip(types, phrases) {
                state.setUser(type, phrases: set, keys: Array(keys[k..<k + set.count]))
                k += set.count
            }
        }
    }

    /// Replaces the user's ordered set of `type` (most important first; a later exact duplicate is dropped),
    /// as `INVocabulary.setVocabularyStrings(_:of:)` does.
    public func setUserPhrases(_ phrases: [String], of type: VocabularyType) {
        let set = UserVocabulary([type: phrases]).phrases[type] ?? []
        let keys = canonicalKeys(of: set)
        state.withLock { $0.setUser(type, phrases: set, keys: keys) }
    }

    /// Adds `phrase` to the user's set of `type` at `position` (the end, least important, when nil or past
    /// the end); the strings after it move down one place.
    ///
    /// - Returns: false when the set already has the phrase (it keeps its place).
    @discardableResult
    public func addUserPhrase(_ phrase: String, of type: VocabularyType, at position: Int? = nil) -> Bool {
        let keys = canonicalKeys(of: [phrase])[0]
        return state.withLock { $0.addUser(type, phrase: phrase, keys: keys, at: position) }
    }

    /// Removes `phrase` (exactly as given) from the user's set of `type`: the user deleted the playlist. The
    /// strings after it move up one place.
    ///
    /// - Returns: false when the set does not have it.
    @discardableResult
    public func removeUserPhrase(_ phrase: String, of type: VocabularyType) -> Bool {
        state.withLock { $0.removeUser(type, phrase: phrase) }
    }

    /// Renames `phrase` to `newPhrase` in the user's set of `type`, keeping its place. When the set already
    /// has `newPhrase`, `phrase` is only removed (an ordered set holds a string once; the other keeps its place).
    ///
    /// - Returns: false when the set does not have `phrase`.
    @discardableResult
    public func renameUserPhrase(_ phrase: String, to newPhrase: String, of type: VocabularyType) -> Bool {
        let keys = canonicalKeys(of: [newPhrase])[0]
        return state.withLock { state in
            guard let position = state.userPosition(type, phrase: phrase) else { return false }
            state.removeUser(type, phrase: phrase)
            state.addUser(type, phrase: newPhrase, keys: keys, at: position)
            return true
        }
    }

    // MARK: Global vocabulary

    /// Adds the items of `vocabulary`; an item with the type and identifier of one already loaded replaces it.
    /// Items rank in load order, after every user string.
    public func loadGlobal(_ vocabulary: GlobalVocabulary) {
        let keys = canonicalKeys(of: vocabulary.items.flatMap { $0.synonyms.map(\.phrase) })
        state.withLock { $0.loadGlobal(vocabulary.items, keys: keys) }
    }

    /// Replaces every global item by those of `vocabulary`.
    public func setGlobalVocabulary(_ vocabulary: GlobalVocabulary) {
        let keys = canonicalKeys(of: vocabulary.items.flatMap { $0.synonyms.map(\.phrase) })
        state.withLock { state in
            state.removeAllGlobal()
            state.loadGlobal(vocabulary.items, keys: keys)
        }
    }

    /// Removes the global items with `identifier` (of `type` only, or of every type when nil).
    ///
    /// - Returns: how many items were removed.
    @discardableResult
    public func removeGlobal(identifier: String, type: VocabularyType? = nil) -> Int {
        state.withLock { state in
            (type.map { [$0] } ?? VocabularyType.allCases).reduce(0) { n, t in
                n + (state.removeGlobal(VocabularyState.GlobalKey(type: t, identifier: identifier)) ? 1 : 0)
            }
        }
    }

    // MARK: Normalising

    /// Phrases this many or more are normalised on several threads.
    private static let parallelThreshold = 2_048

    /// The canonical keys of each phrase, in order.
    private func canonicalKeys(of phrases: [String]) -> [[String]] {
        let normalizer = self.normalizer
        if phrases.count < Self.parallelThreshold {
            return pool.withSession { normalizer.canonicalKeys(of: phrases, session: $0) }
        }
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 16))
        let chunkCount = threads * 4
        let chunkSize = (phrases.count + chunkCount - 1) / chunkCount
        let results = ChunkResults(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
            let range = min(c * chunkSize, phrases.count)..<min((c + 1) * chunkSize, phrases.count)
            let keys = pool.withSession { normalizer.canonicalKeys(of: Array(phrases[range]), session: $0) }
            results.slots.withLock { $0[c] = keys }
        }
        return results.slots.withLock { $0.flatMap { $0 } }
    }

    private final class ChunkResults: Sendable {
        let slots: Locked<[[[String]]]>
        init(count: Int) { slots = Locked(Array(repeating: [], count: count)) }
    }
}

/// The store's content at one moment, with its index. Cheap to take and to keep (the store's later changes
/// copy what they change); safe to use from any thread.
public struct VocabularySnapshot: Sendable {
    let state: VocabularyState
    let normalizer: VocabularyNormalizer

    /// True when there is nothing to look up.
    public var isEmpty: Bool { state.index.isEmpty }

    /// How many user strings and global synonyms there are.
    public var count: (user: Int, global: Int) {
        let user = state.userSets.values.reduce(0) { $0 + $1.count }
        return (user, state.entries.count - user)
    }

    /// The user's ordered set of `type`, most important first.
    public func userPhrases(of type: VocabularyType) -> [String] {
        (state.userSets[type] ?? []).compactMap { state.entries[$0]?.entry.phrase }
    }

    /// Every match of a vocabulary phrase in `tokens`: whole tokens only, compared by canonical keys
    /// (`VocabularyNormalizer`). Overlapping hits are all returned; `VocabularyHit.nonOverlapping` picks among
    /// them. Where several synonyms of one global item (or one phrase of several user entries) match the same
    /// tokens for the same type and value, only the most important is kept. Sorted by start, then rank.
    ///
    /// The cost is one walk of the index per word, each as long as the phrase it follows: it does not grow
    /// with the number of entries.
    ///
    /// - Parameter entities: the number readings of `tokens` when the caller has them already (the parser
    ///   does); nil to find them here.
    func hits(in tokens: [Token], entities: [Entity]? = nil, session: ICUSession) -> [VocabularyHit] {
        guard !tokens.isEmpty, !state.index.isEmpty else { return [] }
        let canonical = normalizer.canonicalTokens(tokens, entities: entities, session: session)
        let words = state.index.wordIDs(canonical.map(\.key))
        var found: [HitKey: VocabularyHit] = [:]
        for i in canonical.indices where words[i] != nil {
            state.index.matches(in: words, from: i) { end, ids in
                let start = canonical[i].start, stop = canonical[end - 1].end
                for id in ids {
                    guard let entry = state.entries[id]?.entry else { continue }
                    let key = HitKey(start: start, end: stop, source: entry.source, type: entry.type, value: entry.value)
                    if let old = found[key], !VocabularyHit.entryRanksAbove(entry, old.entry) { continue }
                    found[key] = VocabularyHit(start: start, end: stop, span: tokens[start].start..<tokens[stop - 1].end,
                                               entry: entry)
                }
            }
        }
        return found.values.sorted { $0.start != $1.start ? $0.start < $1.start : VocabularyHit.ranksAbove($0, $1) }
    }

    private struct HitKey: Hashable {
        var start: Int, end: Int
        var source: VocabularySource
        var type: VocabularyType
        var value: String
    }
}

/// A vocabulary entry found in an utterance.
public struct VocabularyHit: Sendable, Hashable {
    /// The tokens matched, `[start, end)`, as indices into the tokens looked up.
    public var start: Int
    public var end: Int
    /// The same words as offsets in Unicode scalars of the utterance, `[start, end)`.
    public var span: Range<Int>
    public var entry: VocabularyEntry

    public init(start: Int, end: Int, span: Range<Int>, entry: VocabularyEntry) {
        self.start = start
        self.end = end
        self.span = span
        self.entry = entry
    }

    /// The token range.
    public var tokens: Range<Int> { start..<end }
    /// How many utterance tokens it covers ("ten percent happier" is 3, "10% Happier" 2).
    public var length: Int { end - start }

    public func overlaps(_ other: VocabularyHit) -> Bool { start < other.end && other.start < end }

    /// The order in which overlapping hits are chosen, most wanted first:
    ///
    /// 1. user entries before global ones (the contract: "User entries rank above global ones"), so a user
    ///    "classics" beats a global "70s punk classics";
    /// 2. then the one covering more tokens, so the user's "70s punk classics" (at index 5) beats the
    ///    user's "punk" (at index 0): the longer name is what was meant;
    /// 3. then the more important entry (lower `priority`: earlier in the user's ordered set, or the global
    ///    item loaded first);
    /// 4. then the earlier start, the type in `VocabularyType.allCases` order, the phrase and the value, so
    ///    that the choice never depends on the order hits were found.
    public static func ranksAbove(_ a: VocabularyHit, _ b: VocabularyHit) -> Bool { Ranking.vocabularyHit(a, ranksAbove: b) }

    static func entryRanksAbove(_ a: VocabularyEntry, _ b: VocabularyEntry) -> Bool { Ranking.vocabularyEntry(a, ranksAbove: b) }

    /// A selection of `hits` in which no two overlap, taken greedily in `ranksAbove` order; sorted by start.
    public static func nonOverlapping(_ hits: [VocabularyHit]) -> [VocabularyHit] {
        var chosen: [VocabularyHit] = []
        for hit in hits.sorted(by: ranksAbove) where !chosen.contains(where: hit.overlaps) {
            chosen.append(hit)
        }
        return chosen.sorted { $0.start < $1.start }
    }
}

/// The store's mutable content: entries, the user's ordered sets, the global items and the index over them.
/// A value type, so that a snapshot is a copy that later changes do not reach.
struct VocabularyState: Sendable {
    typealias EntryID = PhraseIndex.EntryID

    struct Stored: Sendable {
        var entry: VocabularyEntry
        var keys: [String]
    }

    struct GlobalKey: Hashable, Sendable {
        var type: VocabularyType
        var identifier: String
    }

    private(set) var entries = EntryTable()
    private(set) var index = PhraseIndex()
    /// The user's ordered sets: entry IDs, most important first. An entry's `index` is its place here.
    private(set) var userSets: [VocabularyType: [EntryID]] = [:]
    /// The user's strings by type, for removal by string.
    private var userIDs: [VocabularyType: [String: EntryID]] = [:]
    /// The entries (one per synonym) of each global item.
    private var globalItems: [GlobalKey: [EntryID]] = [:]
    private var nextGlobalOrder = 0

    /// Makes room before adding the phrases of `keys`.
    private mutating func reserveCapacity(for keys: [[String]]) {
        entries.reserveCapacity(keys.count)
        index.reserveCapacity(keyCount: keys.reduce(0) { $0 + $1.count })
    }

    private mutating func add(_ entry: VocabularyEntry, keys: [String]) -> EntryID {
        let id = entries.insert(Stored(entry: entry, keys: keys))
        index.insert(keys, id: id)
        return id
    }

    private mutating func remove(_ id: EntryID) {
        guard let stored = entries.remove(id) else { return }
        index.remove(stored.keys, id: id)
        if entries.count == 0 {
            entries = EntryTable()
            index.removeAll()
        }
    }

    mutating func setUser(_ type: VocabularyType, phrases: [String], keys: [[String]]) {
        for id in userSets[type] ?? [] { remove(id) }
        reserveCapacity(for: keys)
        var ids: [EntryID] = []
        var byPhrase: [String: EntryID] = [:]
        ids.reserveCapacity(phrases.count)
        for (phrase, k) in zip(phrases, keys) where byPhrase[phrase] == nil {
            let id = add(.user(phrase, type: type, index: ids.count), keys: k)
            ids.append(id)
            byPhrase[phrase] = id
        }
        userSets[type] = ids.isEmpty ? nil : ids
        userIDs[type] = byPhrase.isEmpty ? nil : byPhrase
    }

    func userPosition(_ type: VocabularyType, phrase: String) -> Int? {
        userIDs[type]?[phrase].flatMap { entries[$0]?.entry.index }
    }

    @discardableResult
    mutating func addUser(_ type: VocabularyType, phrase: String, keys: [String], at position: Int?) -> Bool {
        guard userIDs[type]?[phrase] == nil else { return false }
        var ids = userSets[type] ?? []
        let place = min(max(position ?? ids.count, 0), ids.count)
        let id = add(.user(phrase, type: type, index: place), keys: keys)
        ids.insert(id, at: place)
        userSets[type] = ids
        userIDs[type, default: [:]][phrase] = id
        renumberUser(type, from: place + 1)
        return true
    }

    @discardableResult
    mutating func removeUser(_ type: VocabularyType, phrase: String) -> Bool {
        guard let id = userIDs[type]?[phrase], let place = entries[id]?.entry.index else { return false }
        remove(id)
        userIDs[type]?[phrase] = nil
        userSets[type]?.remove(at: place)
        renumberUser(type, from: place)
        if userSets[type]?.isEmpty == true {
            userSets[type] = nil
            userIDs[type] = nil
        }
        return true
    }

    /// Sets the `index` of the user entries of `type` from `place` on to their place in the set.
    private mutating func renumberUser(_ type: VocabularyType, from place: Int) {
        guard let ids = userSets[type], place < ids.count else { return }
        for k in place..<ids.count { entries[ids[k]]?.entry.index = k }
    }

    /// Adds global items; `keys` holds the canonical keys of every synonym of every item, in order.
    mutating func loadGlobal(_ items: [GlobalVocabulary.Item], keys: [[String]]) {
        reserveCapacity(for: keys)
        globalItems.reserveCapacity(globalItems.count + items.count)
        var k = 0
        for item in items {
            let key = GlobalKey(type: item.type, identifier: item.identifier)
            removeGlobal(key)
            let order = nextGlobalOrder
            nextGlobalOrder += 1
            var ids: [EntryID] = []
            for synonym in item.synonyms {
                let entry = VocabularyEntry(source: .global, type: item.type, phrase: synonym.phrase,
                                            value: item.identifier, identifier: item.identifier,
                                            pronunciation: synonym.pronunciation, index: order)
                ids.append(add(entry, keys: keys[k]))
                k += 1
            }
            globalItems[key] = ids
        }
    }

    @discardableResult
    mutating func removeGlobal(_ key: GlobalKey) -> Bool {
        guard let ids = globalItems.removeValue(forKey: key) else { return false }
        for id in ids { remove(id) }
        return true
    }

    mutating func removeAllGlobal() {
        for ids in globalItems.values { for id in ids { remove(id) } }
        globalItems = [:]
        nextGlobalOrder = 0
    }
}

/// Entries by ID: an array with a free list, so that IDs stay small and look-ups are an index.
struct EntryTable: Sendable {
    typealias EntryID = PhraseIndex.EntryID

    private var slots: [VocabularyState.Stored?] = []
    private var free: [EntryID] = []
    /// How many entries there are.
    private(set) var count = 0

    subscript(id: EntryID) -> VocabularyState.Stored? {
        get { Int(id) < slots.count ? slots[Int(id)] : nil }
        set {
            guard Int(id) < slots.count, slots[Int(id)] != nil, let newValue else { return }
            slots[Int(id)] = newValue
        }
    }

    mutating func reserveCapacity(_ more: Int) { slots.reserveCapacity(slots.count + max(0, more - free.count)) }

    mutating func insert(_ stored: VocabularyState.Stored) -> EntryID {
        count += 1
        if let id = free.popLast() {
            slots[Int(id)] = stored
            return id
        }
        slots.append(stored)
        return EntryID(slots.count - 1)
    }

    mutating func remove(_ id: EntryID) -> VocabularyState.Stored? {
        guard let stored = self[id] else { return nil }
        slots[Int(id)] = nil
        free.append(id)
        count -= 1
        return stored
    }
}
