import Foundation

/// A compiled grammar kept on disk, so that a process starts in milliseconds instead of reading YAML and
/// building the automaton again.
///
/// The file's name is a hash of everything the compiled grammar depends on: the text of every grammar
/// file of the locale's folders, the app names, and a fingerprint of the library's own source files
/// (written at build time by the GrammarEmbedder plugin), so that a changed grammar or a new build of the
/// compiler never reads a stale file. A file that is unreadable, truncated or of another format is a
/// miss: the grammar is compiled and the file written again. Nothing here ever fails a parse.
///
/// Where: `$MEDIAPARSE_CACHE` if set (`off` turns the cache off), else `$XDG_CACHE_HOME/mediaparse`, else
/// `~/.cache/mediaparse`. At most `keep` files and `maxBytes` in all are kept, the least recently used
/// removed first (a file read back counts as used), and a temporary file a crashed writer left is removed
/// after an hour.
struct GrammarCache {
    /// The folder of the files, or nil for none.
    let directory: URL?
    /// Grammars kept in memory for the process (nil: every parser reads or compiles its own).
    let memory: RecentGrammars?
    static let keep = 40  // more than the locales there are, so that a process loading all of them never evicts its own
    /// A German grammar takes some 40 MB, most others 10–20: room for every locale, twice over at most.
    static let maxBytes = 768 << 20
    static let magic: UInt32 = 0x4D50_4743  // "MPGC"
    static let format: UInt32 = 7
    /// Magic, format, key and checksum: what every cache file starts with.
    static let headerBytes = 4 + 4 + 8 + 8

    init(directory: URL?, memory: RecentGrammars? = nil) {
        self.directory = directory
        self.memory = memory
    }

    /// The folder the environment asks for.
    static var standardDirectory: URL? {
        let env = ProcessInfo.processInfo.environment
        if let value = env["MEDIAPARSE_CACHE"] {
            if value.isEmpty || value == "off" || value == "0" { return nil }
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("mediaparse")
        }
        guard let home = env["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/mediaparse")
    }

    /// The key of a grammar: FNV-1a over the library fingerprint, the locale and every file of its folders (the
    /// caller's names are not part of a grammar: `CallerNames`).
    static func key(locale: String, chain: [String], catalog: GrammarCatalog) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01B3
            }
            hash ^= 0xFF
            hash = hash &* 0x100_0000_01B3
        }
        add(String(format: "%016llx", compilerFingerprint))
        add("\(format)")
        add(locale)
        for folder in chain {
            add("folder:" + folder)
            let files = catalog.folders[folder] ?? [:]
            for path in files.keys.sorted() {
                add(path)
                add(files[path]!.text)
            }
        }
        return hash
    }

    /// A 64-bit hash of the file's body, eight bytes at a time (a damaged byte anywhere is a miss).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x94D0_49BB_1331_11EB
            i += 1
        }
        return h ^ (h >> 29)
    }

    private func url(_ key: UInt64) -> URL? {
        directory?.appendingPathComponent(String(format: "%016llx.grammar", key))
    }

    func load(_ key: UInt64, settings: LanguageProfile) -> CompiledGrammar? {
        // A file shorter than the header is a miss, and is not read: Foundation's `Data(contentsOf:)` leaks a
        // 4 KB buffer on every read of an empty file (found by the AddressSanitizer run of the tests).
        guard let url = url(key), let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize, size >= Self.headerBytes,
              let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        return data.withUnsafeBytes { bytes -> CompiledGrammar? in
            var reader = BinaryReader(bytes: bytes)
            guard (try? reader.u32()) == Self.magic, (try? reader.u32()) == Self.format, (try? reader.u64()) == key,
                  let sum = try? reader.u64(), sum == Self.checksum(UnsafeRawBufferPointer(rebasing: bytes[reader.at...])) else {
                return nil
            }
            guard let grammar = try? CompiledGrammar(reading: &reader, settings: settings) else { return nil }
            // Used now: the pruning below removes the least recently used first.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
            return grammar
        }
    }

    func store(_ grammar: CompiledGrammar, key: UInt64) {
        guard let directory, let url = url(key) else { return }
        var writer = BinaryWriter()
        writer.u32(Self.magic)
        writer.u32(Self.format)
        writer.u64(key)
        var body = BinaryWriter()
        grammar.write(to: &body)
        writer.u64(body.bytes.withUnsafeBytes { Self.checksum($0) })
        writer.bytes += body.bytes
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp")
            try Data(writer.bytes).write(to: temporary)
            if rename(temporary.path, url.path) != 0 { try? fm.removeItem(at: temporary) }
            prune()
        } catch {
            // A read-only or full disk only costs the next start-up its time.
        }
    }

    /// Keeps the newest `keep` grammar files.
    /// Removes the least recently used files past `keep` files or `maxBytes` (the newest is always kept),
    /// and temporary files older than an hour.
    func prune(keep: Int = Self.keep, maxBytes: Int = Self.maxBytes) {
        guard let directory else { return }
        let fm = FileManager.default
        let keys: Set<URLResourceKey> = [.contentModificationDateKey, .fileSizeKey]
        guard let names = try? fm.contentsOfDirectory(at: directory, includingPropertiesForKeys: Array(keys)) else { return }
        let files = names.map { url -> (url: URL, used: Date, bytes: Int) in
            let values = try? url.resourceValues(forKeys: keys)
            return (url, values?.contentModificationDate ?? .distantPast, values?.fileSize ?? 0)
        }
        // A temporary file older than an hour is a writer that died before renaming it.
        for f in files where f.url.pathExtension == "tmp" && f.used < Date(timeIntervalSinceNow: -3600) { try? fm.removeItem(at: f.url) }
        var kept = 0, bytes = 0
        for f in files.filter({ $0.url.pathExtension == "grammar" }).sorted(by: { $0.used > $1.used }) {
            if kept > 0, kept >= keep || bytes + f.bytes > maxBytes {
                try? fm.removeItem(at: f.url)
            } else {
                kept += 1
                bytes += f.bytes
            }
        }
    }
}

/// A truncated or malformed cache file.
struct CacheFormatError: Error {}

/// Little-endian values and arrays, appended.
struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func double(_ v: Double) { u64(v.bitPattern) }
    mutating func string(_ s: String) {
        int(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }
    mutating func i32s(_ a: [Int32]) {
        int(a.count)
        for v in a { u32(UInt32(bitPattern: v)) }
    }
    mutating func strings(_ a: [String]) {
        int(a.count)
        for s in a { string(s) }
    }
    mutating func optionalInt(_ v: Int?) { int(v ?? -1) }
}

/// Reads what `BinaryWriter` wrote; every read checks the bounds.
struct BinaryReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private mutating func take(_ n: Int) throws -> Int {
        guard n >= 0, at <= bytes.count - n else { throw CacheFormatError() }
        defer { at += n }
        return at
    }
    mutating func u32() throws -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(4), as: UInt32.self)) }
    mutating func u64() throws -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8), as: UInt64.self)) }
    mutating func int() throws -> Int { Int(Int64(bitPattern: try u64())) }
    mutating func count() throws -> Int {
        let n = try int()
        guard n >= 0, n <= bytes.count else { throw CacheFormatError() }
        return n
    }
    mutating func bool() throws -> Bool { bytes[try take(1)] != 0 }
    mutating func double() throws -> Double { Double(bitPattern: try u64()) }
    mutating func string() throws -> String {
        let n = try count()
        let start = try take(n)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + n)]), as: UTF8.self)
    }
    mutating func i32s() throws -> [Int32] {
        let n = try count()
        let start = try take(n * 4)
        return [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + n * 4)]))
            for i in 0..<n { buffer[i] = Int32(littleEndian: buffer[i]) }
            initialized = n
        }
    }
    mutating func strings() throws -> [String] { try (0..<count()).map { _ in try string() } }
    mutating func optionalInt() throws -> Int? {
        let v = try int()
        return v < 0 ? nil : v
    }
}

extension Automaton {
    func write(to w: inout BinaryWriter) {
        for a in [wordStart, wordKeys, wordTargetStart, slotStart, slotIDs, slotTargetStart, targets, slotTargetList,
                  acceptStart, accepts] { w.i32s(a) }
        w.bool(deterministic)
    }

    init(reading r: inout BinaryReader) throws {
        self.init()
        wordStart = try r.i32s(); wordKeys = try r.i32s(); wordTargetStart = try r.i32s()
        slotStart = try r.i32s(); slotIDs = try r.i32s(); slotTargetStart = try r.i32s()
        targets = try r.i32s(); slotTargetList = try r.i32s()
        acceptStart = try r.i32s(); accepts = try r.i32s()
        deterministic = try r.bool()
        try validate()
    }

    private func monotone(_ a: [Int32], upTo limit: Int) -> Bool {
        a.first == 0 && Int(a.last!) == limit && zip(a, a.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// Every range and index in bounds, so that a damaged file cannot make the matcher read outside.
    private func validate() throws {
        let n = wordStart.count - 1
        guard n >= 0, slotStart.count == n + 1, acceptStart.count == n + 1 else { throw CacheFormatError() }
        if deterministic {
            guard wordTargetStart.isEmpty, slotTargetStart.isEmpty, targets.count == wordKeys.count,
                  slotTargetList.count == slotIDs.count else { throw CacheFormatError() }
        } else {
            guard wordTargetStart.count == wordKeys.count + 1, slotTargetStart.count == slotIDs.count + 1,
                  monotone(wordTargetStart, upTo: targets.count), monotone(slotTargetStart, upTo: slotTargetList.count) else {
                throw CacheFormatError()
            }
        }
        guard monotone(wordStart, upTo: wordKeys.count), monotone(slotStart, upTo: slotIDs.count),
              monotone(acceptStart, upTo: accepts.count),
              targets.allSatisfy({ $0 >= 0 && Int($0) < n }), slotTargetList.allSatisfy({ $0 >= 0 && Int($0) < n }) else {
            throw CacheFormatError()
        }
    }
}

extension SourceLocation {
    func write(to w: inout BinaryWriter) {
        w.string(file)
        w.optionalInt(line)
        w.optionalInt(column)
    }
    init(reading r: inout BinaryReader) throws {
        self.init(file: try r.string(), line: try r.optionalInt(), column: try r.optionalInt())
    }
}

extension SlotValue {
    static func write(_ value: SlotValue?, to w: inout BinaryWriter) {
        switch value {
        case nil: w.int(0)
        case let .text(s)?: w.int(1); w.string(s)
        case let .number(n)?: w.int(2); w.double(n)
        case let .flag(b)?: w.int(3); w.bool(b)
        case let .dateRange(s, e)?: w.int(4); w.string(s); w.string(e)
        }
    }
    static func read(_ r: inout BinaryReader) throws -> SlotValue? {
        switch try r.int() {
        case 0: return nil
        case 1: return .text(try r.string())
        case 2: return .number(try r.double())
        case 3: return .flag(try r.bool())
        case 4: return .dateRange(start: try r.string(), end: try r.string())
        default: throw CacheFormatError()
        }
    }
}

extension CompiledGrammar {
    func write(to w: inout BinaryWriter) {
        var words = [String](repeating: "", count: wordIDs.count)
        for (word, id) in wordIDs { words[Int(id)] = word }
        w.strings(words)
        nfa.write(to: &w)
        w.i32s(nfaRuleStack)
        automaton.write(to: &w)
        w.int(Int(start))
        w.int(Int(beforeStart) + 1)
        w.int(Int(afterStart) + 1)
        w.i32s(phrasingWordIDs)
        w.i32s(notMediaWordIDs)
        w.int(sentences.count)
        for s in sentences {
            w.string(s.modifier?.rawValue ?? "")
            w.string(s.intent.rawValue)
            w.string(s.text)
            s.location.write(to: &w)
            w.int(s.set.count)
            for (field, value) in s.set {
                w.string(field.rawValue)
                SlotValue.write(value, to: &w)
            }
        }
        w.int(slots.count)
        for slot in slots {
            w.string(slot.listName)
            w.string(slot.slotName)
            w.string(slot.field?.rawValue ?? "")
            switch slot.source {
            case let .list(index, literal): w.int(0); w.int(index); w.bool(literal)
            case let .wildcard(maxWords, minWords, exclude, alone):
                w.int(1); w.int(maxWords); w.int(minWords); w.i32s(exclude.sorted()); w.i32s(alone.sorted())
            case let .recognizer(kind): w.int(2); w.string(kind.rawValue)
            }
        }
        w.int(lists.count)
        for list in lists {
            w.string(list.name)
            w.int(list.values.count)
            for value in list.values { SlotValue.write(value, to: &w) }
            for location in list.locations { location.write(to: &w) }
        }
        w.int(trie.children.count)
        for (children, terminals) in zip(trie.children, trie.terminals) {
            let keys = children.keys.sorted()
            w.i32s(keys)
            w.i32s(keys.map { children[$0]! })
            w.i32s(terminals.map(\.list))
            w.i32s(terminals.map(\.entry))
        }
        w.int(longestEntry)
        w.strings(ruleNames)
        for location in ruleLocations { location.write(to: &w) }
        w.int(ruleStacks.count)
        for stack in ruleStacks { w.i32s(stack) }
    }

    convenience init(reading r: inout BinaryReader, settings: LanguageProfile) throws {
        let words = try r.strings()
        var ids: [String: Int32] = [:]
        ids.reserveCapacity(words.count)
        for (i, word) in words.enumerated() { ids[word] = Int32(i) }
        let nfa = try Automaton(reading: &r)
        let nfaRuleStack = try r.i32s()
        let automaton = try Automaton(reading: &r)
        let start = Int32(try r.int())
        let beforeStart = Int32(truncatingIfNeeded: try r.int()) &- 1, afterStart = Int32(truncatingIfNeeded: try r.int()) &- 1
        let phrasingWordIDs = try r.i32s(), notMediaWordIDs = try r.i32s()
        var sentences: [CompiledSentence] = []
        for _ in 0..<(try r.count()) {
            let side = try r.string()
            let modifier = ModifierSide(rawValue: side)
            if !side.isEmpty, modifier == nil { throw CacheFormatError() }
            guard let intent = IntentName(rawValue: try r.string()) else { throw CacheFormatError() }
            let text = try r.string()
            let location = try SourceLocation(reading: &r)
            var set: [(Field, SlotValue)] = []
            for _ in 0..<(try r.count()) {
                guard let field = Field(rawValue: try r.string()), let value = try SlotValue.read(&r) else { throw CacheFormatError() }
                set.append((field, value))
            }
            sentences.append(CompiledSentence(intent: intent, text: text, location: location, set: set, modifier: modifier))
        }
        var slots: [SlotRef] = []
        for _ in 0..<(try r.count()) {
            let listName = try r.string(), slotName = try r.string(), fieldName = try r.string()
            let field: Field? = fieldName.isEmpty ? nil : Field(rawValue: fieldName)
            if !fieldName.isEmpty, field == nil { throw CacheFormatError() }
            let source: SlotSource
            switch try r.int() {
            case 0: source = .list(try r.int(), literal: try r.bool())
            case 1: source = .wildcard(maxWords: try r.int(), minWords: try r.int(), exclude: Set(try r.i32s()), excludeAlone: Set(try r.i32s()))
            case 2:
                guard let kind = RecognizerKind(rawValue: try r.string()) else { throw CacheFormatError() }
                source = .recognizer(kind)
            default: throw CacheFormatError()
            }
            slots.append(SlotRef(listName: listName, slotName: slotName, field: field, source: source))
        }
        var lists: [CompiledList] = []
        for _ in 0..<(try r.count()) {
            let name = try r.string()
            let n = try r.count()
            let values = try (0..<n).map { _ in try SlotValue.read(&r) }
            let locations = try (0..<n).map { _ in try SourceLocation(reading: &r) }
            lists.append(CompiledList(name: name, values: values, locations: locations))
        }
        var trie = ListTrie()
        trie.children = []
        trie.terminals = []
        let nodes = try r.count()
        for _ in 0..<nodes {
            let keys = try r.i32s(), targets = try r.i32s(), tl = try r.i32s(), te = try r.i32s()
            guard keys.count == targets.count, tl.count == te.count, targets.allSatisfy({ $0 >= 0 && Int($0) < nodes }) else {
                throw CacheFormatError()
            }
            trie.children.append(Dictionary(uniqueKeysWithValues: zip(keys, targets)))
            trie.terminals.append(zip(tl, te).map { (list: $0, entry: $1) })
        }
        let longestEntry = try r.int()
        let ruleNames = try r.strings()
        let ruleLocations = try ruleNames.map { _ in try SourceLocation(reading: &r) }
        var ruleStacks: [[Int32]] = []
        for _ in 0..<(try r.count()) { ruleStacks.append(try r.i32s()) }
        // Indexes between the parts, checked so that a damaged file cannot crash a parse.
        guard r.at == r.bytes.count, nodes > 0, automaton.count > 0, nfa.count == nfaRuleStack.count,
              Int(start) < automaton.count, start >= 0,
              beforeStart >= -1, afterStart >= -1, (phrasingWordIDs + notMediaWordIDs).allSatisfy({ $0 >= 0 && Int($0) < words.count }), Int(beforeStart) < automaton.count, Int(afterStart) < automaton.count,
              automaton.accepts.allSatisfy({ $0 >= 0 && Int($0) < sentences.count }),
              nfa.accepts.allSatisfy({ $0 >= 0 && Int($0) < sentences.count }),
              automaton.slotIDs.allSatisfy({ $0 >= 0 && Int($0) < slots.count }),
              nfa.slotIDs.allSatisfy({ $0 >= 0 && Int($0) < slots.count }),
              nfaRuleStack.allSatisfy({ $0 >= 0 && Int($0) < ruleStacks.count }),
              ruleStacks.allSatisfy({ $0.allSatisfy { $0 >= 0 && Int($0) < ruleNames.count } }),
              trie.terminals.allSatisfy({ $0.allSatisfy { Int($0.list) < lists.count && $0.entry >= 0 && Int($0.entry) < lists[Int($0.list)].values.count } }),
              slots.allSatisfy({ if case let .list(i, _) = $0.source { return i >= 0 && i < lists.count } else { return true } })
        else { throw CacheFormatError() }
        self.init(settings: settings, wordIDs: ids, nfa: nfa, nfaRuleStack: nfaRuleStack, start: start, sentences: sentences,
                  slots: slots, lists: lists, trie: trie, longestEntry: longestEntry, ruleNames: ruleNames,
                  ruleLocations: ruleLocations, ruleStacks: ruleStacks, automaton: automaton,
                  beforeStart: beforeStart, afterStart: afterStart, phrasingWordIDs: phrasingWordIDs, notMediaWordIDs: notMediaWordIDs)
    }
}

/// The grammars this process compiled or read most recently, kept in memory: a second parser of the same
/// grammar (another app name set, a test, a server's parser per vocabulary) shares the first one's automaton
/// instead of compiling it again. Keyed like the disk cache; at most `capacity` grammars are held.
final class RecentGrammars: Sendable {
    static let shared = RecentGrammars(capacity: 4)
    private let capacity: Int
    private let entries = Locked<[(key: UInt64, grammar: CompiledGrammar)]>([])

    init(capacity: Int) { self.capacity = capacity }

    func grammar(_ key: UInt64) -> CompiledGrammar? {
        entries.withLock { list in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list.remove(at: i)
            list.append(hit)
            return hit.grammar
        }
    }

    func forget() { entries.withLock { $0.removeAll() } }

    func keep(_ grammar: CompiledGrammar, key: UInt64) {
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, grammar))
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }
}
