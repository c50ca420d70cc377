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
    static let format: UInt32 = 13
    /// Magic, format, key and checksum: what every cache file starts with.
    static let headerBytes = 4 + 4 + 8 + 8

    /// The folder of the grammars compiled when the package was built (`<locale>.grammar`, read only; see
    /// `shippedDirectory`), consulted before `directory`; nil for none.
    let shipped: URL?

    init(directory: URL?, memory: RecentGrammars? = nil, shipped: URL? = nil) {
        self.directory = directory
        self.memory = memory
        self.shipped = shipped
    }

    /// The name SwiftPM gives the resource folder of the `MediaParseGrammars` target, which holds every
    /// built-in locale's grammar, compiled when the package is built (the CompileGrammars plugin).
    static let shippedBundleName = "MediaParse_MediaParseGrammars"

    /// Where the grammars compiled with the package lie: `$MEDIAPARSE_SHIPPED_GRAMMARS` if set (`off`: none,
    /// so every grammar is compiled at first use), else the target's resource folder where SwiftPM puts it,
    /// beside the executable (a `.resources` folder on Linux, a `.bundle` on Apple platforms). A binary
    /// copied somewhere without that folder still works: it compiles each grammar at its first use.
    static let shippedDirectory: URL? = {
        let fm = FileManager.default
        func folder(_ url: URL) -> URL? {
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
        }
        if let value = ProcessInfo.processInfo.environment["MEDIAPARSE_SHIPPED_GRAMMARS"] {
            if value.isEmpty || value == "off" || value == "0" { return nil }
            return folder(URL(fileURLWithPath: value, isDirectory: true))
        }
        func look(in place: URL) -> URL? {
            for suffix in ["resources", "bundle"] {
                guard let found = folder(place.appendingPathComponent("\(shippedBundleName).\(suffix)")) else { continue }
                // A bundle on Apple platforms keeps its files in Contents/Resources.
                return folder(found.appendingPathComponent("Contents/Resources")) ?? found
            }
            return nil
        }
        #if os(Linux)
        // The executable's own folder, where SwiftPM puts the resources on Linux, without opening
        // `Bundle.main` (a millisecond of every process start).
        if let executable = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
           let found = look(in: URL(fileURLWithPath: executable).deletingLastPathComponent()) {
            return found
        }
        #endif
        var places: [URL] = [Bundle.main.bundleURL]
        if let resources = Bundle.main.resourceURL { places.append(resources) }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() { places.append(executable.deletingLastPathComponent()) }
        return places.lazy.compactMap(look).first
    }()

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

    /// The key of a grammar: FNV-1a over the library fingerprint, the file format, ICU's version, the locale and
    /// every file of its folders, each file's text by its `checksum` (the caller's names are not part of a
    /// grammar: `CallerNames`). Hashing the texts a byte at a time through `String.utf8` was a tenth of a start.
    /// The build's compiled grammars are keyed by this same function, so changing it only makes caches miss.
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
        add("icu " + ICUVersion.current)
        add(locale)
        for folder in chain {
            add("folder:" + folder)
            let files = catalog.folders[folder] ?? [:]
            for path in files.keys.sorted() {
                add(path)
                var text = files[path]!.text
                add(String(text.withUTF8 { checksum(UnsafeRawBufferPointer($0)) }, radix: 16))
            }
        }
        return hash
    }

    /// A 64-bit hash of the file's body, eight bytes at a time in four independent lanes (a damaged byte
    /// anywhere is a miss; four lanes let the processor multiply in parallel: 34 MB in a few milliseconds).
    /// `file`, when the bytes lie in it, gets each megabyte's pages back once it is summed.
    static func checksum(_ bytes: UnsafeRawBufferPointer, in file: MappedFile? = nil) -> UInt64 {
        let m: UInt64 = 0xBF58_476D_1CE4_E5B9
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count), 0x94D0_49BB_1331_11EB,
                                                         0xD6E8_FEB8_6659_FD93, 0xA076_1D64_78BD_642F)
        @inline(__always) func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
            let x = (h ^ v) &* m
            return x ^ (x >> 31)
        }
        var i = 0
        var summed = 0
        while i + 32 <= bytes.count {
            lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
            if let file, i - summed >= 1 << 20 {
                file.forgetPages(of: UnsafeRawBufferPointer(rebasing: bytes[summed..<i]))
                summed = i
            }
        }
        var h = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x94D0_49BB_1331_11EB
            i += 1
        }
        return h ^ (h >> 29)
    }

    private func url(_ key: UInt64) -> URL? {
        directory?.appendingPathComponent(String(format: "%016llx.grammar", key))
    }

    /// Maps the file of `key` and reads the grammar where it lies (its tables are not copied: see
    /// `Int32Table`). The whole file is checked first (checksum, then every index in bounds, so that a
    /// damaged file is a miss and never a crash), and the pages that check read are then given back, so
    /// that the process holds only what its parses read.
    ///
    /// The grammar compiled with the package (`shipped`) is tried first, then the cache folder.
    func load(_ key: UInt64, settings: LanguageProfile) -> CompiledGrammar? {
        if let shipped, let grammar = Self.read(shipped.appendingPathComponent("\(settings.name).grammar"), key: key, settings: settings) {
            return grammar
        }
        guard let url = url(key), let grammar = Self.read(url, key: key, settings: settings) else { return nil }
        // Used now: the pruning below removes the least recently used first.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return grammar
    }

    /// The grammar in the file at `url` if it is whole and of `key`, else nil.
    private static func read(_ url: URL, key: UInt64, settings: LanguageProfile) -> CompiledGrammar? {
        guard let file = MappedFile(path: url.path), file.bytes.count >= Self.headerBytes else { return nil }
        var reader = BinaryReader(bytes: file.bytes, mapping: file)
        guard (try? reader.u32()) == Self.magic, (try? reader.u32()) == Self.format, (try? reader.u64()) == key,
              let sum = try? reader.u64(), sum == Self.checksum(UnsafeRawBufferPointer(rebasing: file.bytes[reader.at...]), in: file),
              let grammar = try? CompiledGrammar(reading: &reader, settings: settings) else { return nil }
        file.forgetPages(of: file.bytes)
        file.willReadAtRandom()
        return grammar
    }

    /// The bytes of a cache file holding `grammar` under `key`: header, checksum, body.
    static func encode(_ grammar: CompiledGrammar, key: UInt64) -> [UInt8] {
        var writer = BinaryWriter()
        writer.u32(Self.magic)
        writer.u32(Self.format)
        writer.u64(key)
        var body = BinaryWriter()
        grammar.write(to: &body)
        writer.u64(body.bytes.withUnsafeBytes { Self.checksum($0) })
        writer.bytes += body.bytes
        return writer.bytes
    }

    func store(_ grammar: CompiledGrammar, key: UInt64) {
        guard let directory, let url = url(key) else { return }
        let bytes = Self.encode(grammar, key: key)
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp")
            try Data(bytes).write(to: temporary)
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
    /// A count, then the values at the next multiple of four bytes (where a reader may use them in place).
    mutating func i32s(_ a: [Int32]) { table(Int32Table(a)) }
    mutating func table(_ t: Int32Table) {
        int(t.count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        #if _endian(little)
        t.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for v in t { u32(UInt32(bitPattern: v)) }
        #endif
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
    /// The mapped file `bytes` lie in: tables are then read in place instead of copied.
    let mapping: MappedFile?

    /// The file header is a multiple of four bytes long, so `at` is aligned where the file is.
    init(bytes: UnsafeRawBufferPointer, mapping: MappedFile? = nil) {
        self.bytes = bytes
        self.mapping = mapping
    }

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
    mutating func i32s() throws -> [Int32] { Array(try table()) }
    /// A table of `BinaryWriter.table`: a view into the mapped file when there is one, else a copy.
    mutating func table() throws -> Int32Table {
        let n = try count()
        while at % 4 != 0 { _ = try take(1) }
        let start = try take(n * 4)
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + n * 4)])
        #if _endian(little)
        if let mapping, n > 0, Int(bitPattern: raw.baseAddress!) % 4 == 0 {
            return Int32Table(viewing: raw.baseAddress!.assumingMemoryBound(to: Int32.self), count: n, owner: mapping)
        }
        #endif
        return Int32Table((0..<n).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) })
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
                  acceptStart, accepts] { w.table(a) }
        w.bool(deterministic)
    }

    init(reading r: inout BinaryReader) throws {
        self.init()
        wordStart = try r.table(); wordKeys = try r.table(); wordTargetStart = try r.table()
        slotStart = try r.table(); slotIDs = try r.table(); slotTargetStart = try r.table()
        targets = try r.table(); slotTargetList = try r.table()
        acceptStart = try r.table(); accepts = try r.table()
        deterministic = try r.bool()
        try validate()
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
                  wordTargetStart.isMonotone(upTo: targets.count), slotTargetStart.isMonotone(upTo: slotTargetList.count) else {
                throw CacheFormatError()
            }
        }
        guard wordStart.isMonotone(upTo: wordKeys.count), slotStart.isMonotone(upTo: slotIDs.count),
              acceptStart.isMonotone(upTo: accepts.count),
              targets.allIn(0..<Int32(n)), slotTargetList.allIn(0..<Int32(n)) else {
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
        for (word, id) in wordIDs { words[Int(id)] = word.text }
        w.strings(words)
        nfa.write(to: &w)
        w.table(nfaRuleStack)
        automaton.write(to: &w)
        w.table(continuationStart)
        w.table(continuationList)
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
        calls.automaton.write(to: &w)
        w.table(calls.starts)
        calls.nfa.write(to: &w)
        w.table(calls.nfaRuleStack)
        w.table(calls.nfaStarts)
        w.table(calls.rules)
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
            case let .call(c): w.int(3); w.int(c)
            }
        }
        w.int(lists.count)
        for list in lists {
            w.string(list.name)
            w.int(list.values.count)
            for value in list.values { SlotValue.write(value, to: &w) }
            for location in list.locations { location.write(to: &w) }
        }
        for t in [trie.childStart, trie.childWords, trie.childNodes, trie.terminalStart, trie.terminalLists, trie.terminalEntries] {
            w.table(t)
        }
        w.int(longestEntry)
        w.strings(ruleNames)
        for location in ruleLocations { location.write(to: &w) }
        w.int(ruleStacks.count)
        for stack in ruleStacks { w.i32s(stack) }
        numberWords.write(to: &w)
        w.bool(transformTable != nil)
        transformTable?.write(to: &w)
    }

    convenience init(reading r: inout BinaryReader, settings: LanguageProfile) throws {
        let words = try r.strings()
        var ids: [WordKey: Int32] = [:]
        ids.reserveCapacity(words.count)
        for (i, word) in words.enumerated() { ids[WordKey(word)] = Int32(i) }
        let nfa = try Automaton(reading: &r)
        let nfaRuleStack = try r.table()
        let automaton = try Automaton(reading: &r)
        let continuationStart = try r.table(), continuationList = try r.table()
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
        var calls = CallTable()
        calls.automaton = try Automaton(reading: &r)
        calls.starts = try r.table()
        calls.nfa = try Automaton(reading: &r)
        calls.nfaRuleStack = try r.table()
        calls.nfaStarts = try r.table()
        calls.rules = try r.table()
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
            case 3: source = .call(try r.int())
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
        let trie = FlatTrie(childStart: try r.table(), childWords: try r.table(), childNodes: try r.table(),
                            terminalStart: try r.table(), terminalLists: try r.table(), terminalEntries: try r.table())
        let nodes = trie.nodeCount
        let longestEntry = try r.int()
        let ruleNames = try r.strings()
        let ruleLocations = try ruleNames.map { _ in try SourceLocation(reading: &r) }
        var ruleStacks: [[Int32]] = []
        for _ in 0..<(try r.count()) { ruleStacks.append(try r.i32s()) }
        let numberWords = try NumberWords(reading: &r)
        let transformTable = try r.bool() ? try TransformTable(reading: &r) : nil
        // Indexes between the parts, checked so that a damaged file cannot crash a parse.
        guard r.at == r.bytes.count, nodes > 0, automaton.count > 0, nfa.count == nfaRuleStack.count,
              Int(start) < automaton.count, start >= 0,
              beforeStart >= -1, afterStart >= -1, (phrasingWordIDs + notMediaWordIDs).allSatisfy({ $0 >= 0 && Int($0) < words.count }), Int(beforeStart) < automaton.count, Int(afterStart) < automaton.count,
              automaton.accepts.allIn(0..<Int32(sentences.count)), nfa.accepts.allIn(0..<Int32(sentences.count)),
              automaton.slotIDs.allIn(0..<Int32(slots.count)), nfa.slotIDs.allIn(0..<Int32(slots.count)),
              nfaRuleStack.allIn(0..<Int32(ruleStacks.count)),
              ruleStacks.allSatisfy({ $0.allSatisfy { $0 >= 0 && Int($0) < ruleNames.count } }),
              trie.childStart.isMonotone(upTo: trie.childWords.count), trie.childNodes.count == trie.childWords.count,
              trie.childNodes.allIn(0..<Int32(nodes)),
              trie.terminalStart.isMonotone(upTo: trie.terminalLists.count), trie.terminalStart.count == nodes + 1,
              trie.terminalEntries.count == trie.terminalLists.count,
              zip(trie.terminalLists, trie.terminalEntries).allSatisfy({ l, e in
                  l >= 0 && Int(l) < lists.count && e >= 0 && Int(e) < lists[Int(l)].values.count }),
              continuationStart.count == automaton.count + 1, continuationStart.isMonotone(upTo: continuationList.count),
              continuationList.allIn(0..<Int32(automaton.count)),
              slots.allSatisfy({ if case let .list(i, _) = $0.source { return i >= 0 && i < lists.count } else { return true } }),
              slots.allSatisfy({ if case let .call(c) = $0.source { return c >= 0 && c < calls.count } else { return true } }),
              calls.starts.count == calls.count, calls.nfaStarts.count == calls.count,
              calls.starts.allIn(0..<Int32(max(calls.automaton.count, 1))), calls.nfaStarts.allIn(0..<Int32(max(calls.nfa.count, 1))),
              calls.count == 0 || (calls.automaton.count > 0 && calls.nfa.count > 0),
              calls.automaton.accepts.allIn(0..<Int32(calls.count)), calls.nfa.accepts.allIn(0..<Int32(calls.count)),
              calls.automaton.slotIDs.allIn(0..<Int32(slots.count)), calls.nfa.slotIDs.allIn(0..<Int32(slots.count)),
              calls.nfaRuleStack.count == calls.nfa.count, calls.nfaRuleStack.allIn(0..<Int32(ruleStacks.count)),
              calls.rules.allIn(0..<Int32(ruleNames.count)),
              (0..<calls.count).allSatisfy({ c in slots.contains { if case .call(c) = $0.source { true } else { false } } })
        else { throw CacheFormatError() }
        self.init(settings: settings, numberWords: numberWords, transformTable: transformTable, wordIDs: ids, nfa: nfa, nfaRuleStack: nfaRuleStack, start: start, sentences: sentences,
                  slots: slots, lists: lists, trie: trie, longestEntry: longestEntry, ruleNames: ruleNames,
                  ruleLocations: ruleLocations, ruleStacks: ruleStacks, automaton: automaton,
                  beforeStart: beforeStart, afterStart: afterStart, phrasingWordIDs: phrasingWordIDs, notMediaWordIDs: notMediaWordIDs,
                  calls: calls, continuations: (continuationStart, continuationList))
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
