/// A trie over canonical key sequences: finding every phrase that starts at a position costs one hash look-up
/// per word walked, however many phrases there are.
///
/// Words are interned to integers, and an edge is one entry of a flat dictionary keyed by (node, word), so
/// that 100,000 phrases need no per-node dictionaries. Removing a phrase takes its entry off its end node
/// and leaves the nodes (a later phrase may reuse them); `removeAll` starts afresh.
struct PhraseIndex: Sendable {
    typealias EntryID = UInt32

    /// Interned words.
    private var words: [String: UInt32] = [:]
    /// (node << 32 | word) → child node. Node 0 is the root.
    private var edges: [UInt64: UInt32] = [:]
    /// Entries whose phrase ends at a node.
    private var terminals: [UInt32: [EntryID]] = [:]
    private var nodeCount: UInt32 = 1

    var isEmpty: Bool { terminals.isEmpty }

    private static func edge(_ node: UInt32, _ word: UInt32) -> UInt64 { UInt64(node) << 32 | UInt64(word) }

    /// Adds `id` as a phrase of `keys` (nothing for no keys: a phrase without words cannot be said).
    mutating func insert(_ keys: [String], id: EntryID) {
        guard !keys.isEmpty else { return }
        var node: UInt32 = 0
        for key in keys {
            let word: UInt32
            if let w = words[key] { word = w } else {
                word = UInt32(words.count)
                words[key] = word
            }
            let e = Self.edge(node, word)
            if let next = edges[e] { node = next } else {
                edges[e] = nodeCount
                node = nodeCount
                nodeCount += 1
            }
        }
        terminals[node, default: []].append(id)
    }

    /// Takes `id` off the phrase `keys`.
    mutating func remove(_ keys: [String], id: EntryID) {
        guard let node = node(for: keys[...]), var ids = terminals[node], let k = ids.firstIndex(of: id) else { return }
        ids.remove(at: k)
        terminals[node] = ids.isEmpty ? nil : ids
    }

    mutating func removeAll() { self = PhraseIndex() }

    /// Makes room for phrases of `keyCount` keys in all, before a bulk load.
    mutating func reserveCapacity(keyCount: Int) {
        edges.reserveCapacity(edges.count + keyCount)
        terminals.reserveCapacity(terminals.count + keyCount / 2)
    }

    private func node(for keys: ArraySlice<String>) -> UInt32? {
        var node: UInt32 = 0
        for key in keys {
            guard let w = words[key], let next = edges[Self.edge(node, w)] else { return nil }
            node = next
        }
        return node
    }

    /// The interned word of each key (nil for words no phrase has), for `matches`.
    func wordIDs(_ keys: [String]) -> [UInt32?] { keys.map { words[$0] } }

    /// Every phrase that is a run of `words` (from `wordIDs`) starting at `start`: calls `body(end, ids)` for
    /// each end (exclusive) where phrases end.
    func matches(in words: [UInt32?], from start: Int, _ body: (_ end: Int, _ ids: [EntryID]) -> Void) {
        var node: UInt32 = 0
        var j = start
        while j < words.count, let w = words[j], let next = edges[Self.edge(node, w)] {
            node = next
            j += 1
            if let ids = terminals[node] { body(j, ids) }
        }
    }
}
