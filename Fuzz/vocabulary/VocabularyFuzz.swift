// libFuzzer target: the vocabulary file readers, `UserVocabulary(data:file:)` (JSON) and
// `GlobalVocabulary(data:file:)` (`AppIntentVocabulary.plist`, XML or binary).
//
// Every input goes to both readers. A vocabulary that reads is then loaded into an en-US parser's store
// (which normalises each phrase: ICU word breaking, folding, number words), the store is asked for its hits
// and the parser to parse a few requests that use the first phrases, so that matching and result building
// see the entries; the store is emptied again before returning, so each input runs against the same state.
// Errors are expected and rendered as the CLI would print them; crashes, hangs and leaks are findings.
import Foundation
import MediaParse

let parser: MediaParser = {
    do { return try MediaParser(locale: "en-US") } catch { fatalError("cannot load the en-US grammar: \(error)") }
}()

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = parser
    return 0
}

/// "play A now", "A by B, Z" … for the first few phrases: what a user would say to use them.
func ask(about phrases: [String]) {
    for phrase in phrases.prefix(3) {
        _ = parser.parse("play \(phrase) now").jsonLine()
    }
    if phrases.count > 1 {
        let text = "\(phrases[0]) by \(phrases[1]), \(phrases[phrases.count - 1])"
        _ = VocabularyHit.nonOverlapping(parser.vocabulary.hits(in: text))
        _ = parser.parse(text, alternatives: 2).jsonLine()
    }
    _ = parser.vocabulary.count
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let user = try UserVocabulary(data: bytes, file: "fuzz.json")
        parser.vocabulary.setUserVocabulary(user)
        ask(about: VocabularyType.allCases.flatMap { user.phrases[$0] ?? [] })
        parser.vocabulary.setUserVocabulary(UserVocabulary())
    } catch {
        _ = "\(error)".count
    }
    do {
        let global = try GlobalVocabulary(data: bytes, file: "fuzz.plist")
        parser.vocabulary.setGlobalVocabulary(global)
        ask(about: global.items.flatMap { $0.synonyms.map(\.phrase) })
        parser.vocabulary.setGlobalVocabulary(GlobalVocabulary())
    } catch {
        _ = "\(error)".count
    }
    return 0
}
