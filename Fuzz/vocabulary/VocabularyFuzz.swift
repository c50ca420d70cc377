// libFuzzer target: the vocabulary file readers, `UserVocabulary(data:file:)` (JSON) and
// `GlobalVocabulary(data:file:)` (`AppIntentVocabulary.plist`, XML or binary).
//
// Every input goes to both readers. A vocabulary that reads is then loaded into an en-US `VocabularyStore`
// (which normalises each phrase: ICU word breaking, folding, number words) and the store is asked for its
// hits in a few requests that use the first phrases, so that matching sees the entries; the store is emptied
// again before returning, so each input runs against the same state. Errors are expected and rendered as the
// CLI would print them; crashes, hangs and leaks are findings.
//
// A store rather than a whole `MediaParser`: Foundation leaks on every property list it cannot read (see
// lsan.supp), so libFuzzer runs a leak check after most inputs, and a check costs time in proportion to the
// heap; without the compiled grammar the heap is a tenth of the size. The parse target covers matching
// with a vocabulary through `parse`.
import Foundation
import MediaParse

let store: VocabularyStore = {
    do { return try VocabularyStore(locale: "en-US") } catch { fatalError("cannot load the en-US settings: \(error)") }
}()

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = store
    return 0
}

/// "play A", "play A by B" … for the first few phrases: what a user would say to use them.
func ask(about phrases: [String]) {
    for phrase in phrases.prefix(3) {
        _ = VocabularyHit.nonOverlapping(store.hits(in: "play \(phrase) now"))
    }
    if phrases.count > 1 {
        _ = VocabularyHit.nonOverlapping(store.hits(in: "\(phrases[0]) by \(phrases[1]), \(phrases[phrases.count - 1])"))
    }
    _ = store.count
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let user = try UserVocabulary(data: bytes, file: "fuzz.json")
        store.setUserVocabulary(user)
        ask(about: VocabularyType.allCases.flatMap { user.phrases[$0] ?? [] })
        store.setUserVocabulary(UserVocabulary())
    } catch {
        _ = "\(error)".count
    }
    do {
        let global = try GlobalVocabulary(data: bytes, file: "fuzz.plist")
        store.setGlobalVocabulary(global)
        ask(about: global.items.flatMap { $0.synonyms.map(\.phrase) })
        store.setGlobalVocabulary(GlobalVocabulary())
    } catch {
        _ = "\(error)".count
    }
    return 0
}
