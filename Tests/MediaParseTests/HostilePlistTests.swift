@testable import MediaParse
import Foundation
import XCTest

/// Binary property lists built to hurt the global-vocabulary reader (finding F4 in `Fuzz/findings/`): objects
/// that refer to themselves, children shared so that the list expands exponentially, sets. Each must end at
/// once in a `GrammarError` that names the file.
final class HostilePlistTests: XCTestCase {
    /// One object of a hand-built binary property list; references are indexes into the object list.
    enum Object {
        case array([Int])
        case set([Int])
        case dictionary([(key: Int, value: Int)])
        case string(String)  // ASCII
    }

    /// `bplist00` with 2-byte object references and 4-byte offsets, the root being object `top`.
    static func bplist(_ objects: [Object], top: Int = 0) -> Data {
        var data = Data("bplist00".utf8)
        var offsets: [Int] = []
        func marker(_ kind: UInt8, _ count: Int) {
            if count < 15 {
                data.append(kind | UInt8(count))
            } else {
                data.append(kind | 0x0F)
                data.append(0x11)  // an integer of 2 bytes follows
                data.append(contentsOf: [UInt8(count >> 8), UInt8(count & 0xFF)])
            }
        }
        func ref(_ r: Int) { data.append(contentsOf: [UInt8(r >> 8), UInt8(r & 0xFF)]) }
        for object in objects {
            offsets.append(data.count)
            switch object {
            case let .array(refs): marker(0xA0, refs.count); refs.forEach(ref)
            case let .set(refs): marker(0xC0, refs.count); refs.forEach(ref)
            case let .dictionary(pairs): marker(0xD0, pairs.count); pairs.forEach { ref($0.key) }; pairs.forEach { ref($0.value) }
            case let .string(s): marker(0x50, s.utf8.count); data.append(contentsOf: Array(s.utf8))
            }
        }
        let tableOffset = data.count
        for o in offsets { data.append(contentsOf: [24, 16, 8, 0].map { UInt8((o >> $0) & 0xFF) }) }
        func be64(_ v: Int) { data.append(contentsOf: stride(from: 56, through: 0, by: -8).map { UInt8((v >> $0) & 0xFF) }) }
        data.append(contentsOf: [0, 0, 0, 0, 0, 0, 4, 2])  // unused ×5, sort version, offset size, reference size
        be64(objects.count); be64(top); be64(tableOffset)
        return data
    }

    /// The error reading `data` throws, and how long that took.
    func readError(_ data: Data, file: String = "hostile.plist", line: UInt = #line) -> (GrammarError?, TimeInterval) {
        let start = Date()
        do {
            let v = try GlobalVocabulary(data: data, file: file)
            XCTFail("expected an error, read \(v.items.count) items", line: line)
        } catch let error as GrammarError {
            return (error, Date().timeIntervalSince(start))
        } catch {
            XCTFail("expected a GrammarError, got \(error)", line: line)
        }
        return (nil, Date().timeIntervalSince(start))
    }

    func testAnArrayHoldingItselfIsRefusedAtOnce() {
        let data = Self.bplist([.array([0])])
        let (error, seconds) = readError(data)
        XCTAssertEqual(error?.location.file, "hostile.plist")
        XCTAssertTrue(error?.message.contains("refers to itself") == true, error?.message ?? "")
        XCTAssertLessThan(seconds, 1)
    }

    func testAVocabularyWhoseGroupIsTheRootIsRefused() {
        // {"ParameterVocabularies": [<the root>]}: the typed reading fails (no ParameterNames), the
        // schema-less one would loop.
        let data = Self.bplist([.dictionary([(1, 2)]), .string("ParameterVocabularies"), .array([0])])
        let (error, seconds) = readError(data)
        XCTAssertTrue(error?.message.contains("refers to itself") == true, error?.message ?? "")
        XCTAssertLessThan(seconds, 1)
    }

    func testSharedChildrenThatExpandExponentiallyAreRefused() {
        // 40 nested arrays [x, x] whose two elements are one object: 2^40 values once expanded.
        var objects: [Object] = (0..<40).map { .array([$0 + 1, $0 + 1]) }
        objects.append(.string("x"))
        let (error, seconds) = readError(Self.bplist(objects))
        XCTAssertNotNil(error)
        XCTAssertTrue(error?.message.contains("refers to itself") == true, error?.message ?? "")
        XCTAssertLessThan(seconds, 1)
    }

    func testAWellFormedVocabularyOfSharedGroupsItemsAndSynonymsIsRefused() {
        // 200 groups × 200 items × 200 synonyms, each level one shared object: 8 million synonyms in 1.7 KB.
        let objects: [Object] = [
            .dictionary([(1, 2)]),                          // 0 root
            .string("ParameterVocabularies"),               // 1
            .array(Array(repeating: 3, count: 200)),        // 2 groups
            .dictionary([(4, 5), (6, 7)]),                  // 3 group
            .string("ParameterNames"),                      // 4
            .array([8]),                                    // 5
            .string("ParameterVocabulary"),                 // 6
            .array(Array(repeating: 9, count: 200)),        // 7 items
            .string("INPlayMediaIntent.playlistTitle"),     // 8
            .dictionary([(10, 11), (12, 13)]),              // 9 item
            .string("VocabularyItemIdentifier"),            // 10
            .string("x"),                                   // 11
            .string("VocabularyItemSynonyms"),              // 12
            .array(Array(repeating: 14, count: 200)),       // 13 synonyms
            .dictionary([(15, 11)]),                        // 14 synonym
            .string("VocabularyItemPhrase"),                // 15
        ]
        let (error, seconds) = readError(Self.bplist(objects))
        XCTAssertTrue(error?.message.contains("expands to more than") == true, error?.message ?? "")
        XCTAssertLessThan(seconds, 1)
    }

    func testASetIsNamedWhereItIs() {
        // {"ParameterVocabularies": [set{"a"}]}
        let data = Self.bplist([.dictionary([(1, 2)]), .string("ParameterVocabularies"), .array([3]), .set([4]), .string("a")])
        let (error, _) = readError(data)
        XCTAssertEqual(error?.message.hasPrefix("ParameterVocabularies[0]: found a set, which a vocabulary cannot hold"), true,
                       error?.message ?? "")
        let (root, _) = readError(Self.bplist([.set([1]), .string("a")]))
        XCTAssertEqual(root?.message.hasPrefix("the top of the property list: found a set"), true, root?.message ?? "")
    }

    /// Finding F6: bytes that are not UTF-8 inside an XML <integer> made Foundation's reader stop the process.
    func testXMLThatIsNotUTF8IsRefusedWithItsPlace() {
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<integer>".utf8)
        data.append(contentsOf: [0xFF, 0xFF, 0x35])
        data.append(Data("</integer>\n</dict>\n</plist>\n".utf8))
        let (error, _) = readError(data)
        XCTAssertEqual(error?.location.line, 5)
        XCTAssertEqual(error?.location.column, 10)
        XCTAssertTrue(error?.message.contains("not UTF-8") == true, error?.message ?? "")
    }

    func testLargeRealVocabulariesStayUnderTheBudget() throws {
        // Foundation's writer shares equal strings; phrases equal to identifiers and identical examples
        // everywhere are the most sharing a real file has.
        let items = (0..<3000).map { i -> [String: Any] in
            ["VocabularyItemIdentifier": "p\(i)",
             "VocabularyItemSynonyms": [["VocabularyItemPhrase": "p\(i)", "VocabularyItemExamples": ["play it", "play it now"]],
                                        ["VocabularyItemPhrase": "same", "VocabularyItemPronunciation": "same"]]]
        }
        let plist: [String: Any] = ["ParameterVocabularies": [["ParameterNames": ["INPlayMediaIntent.playlistTitle"],
                                                               "ParameterVocabulary": items]]]
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
            XCTAssertEqual(try GlobalVocabulary(data: data, file: "big.plist").items.count, 3000)
        }
    }

    /// The reproducers the fuzzer and its write-up keep (`Fuzz/findings/*.plist`): each ends quickly, the
    /// F2 (sets) and F4 (cycles, sharing) ones in a `GrammarError`.
    func testFuzzFindingsEndInAnErrorAtOnce() throws {
        let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/findings")
        let files = try FileManager.default.contentsOfDirectory(atPath: findings.path).filter { $0.hasSuffix(".plist") }.sorted()
        XCTAssertGreaterThanOrEqual(files.filter { $0.hasPrefix("F4-") }.count, 5)
        for name in files {
            let data = try Data(contentsOf: findings.appendingPathComponent(name))
            let start = Date()
            var error: Error?
            do { _ = try GlobalVocabulary(data: data, file: name) } catch let e { error = e }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1, name)
            if name.hasPrefix("F2-") || name.hasPrefix("F4-") {
                let e = error as? GrammarError
                XCTAssertEqual(e?.location.file, name)
                XCTAssertNotNil(e, "\(name): \(String(describing: error))")
            }
        }
    }
}
