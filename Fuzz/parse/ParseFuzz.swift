// libFuzzer target: `MediaParser.parse(_:)` on arbitrary bytes.
//
// The bytes become the utterance two ways, as the library's callers make them: when they are valid UTF-8
// they are validated (`String(validating:as:)`, what the CLI does for each line); when not, they are decoded
// lossily (`String(decoding:as:)`, replacement characters for bad sequences). The parse options follow the
// input's length (`size % 4`), so a reproducer replays the same way: defaults, `alternatives: 2`,
// `explain: true`, or both with `alternatives: 5`.
//
// Besides crashes, the harness traps on a broken promise of the result (docs/CONTRACT.md): the JSON line must
// encode and be JSON; every span is `[start, end)` inside the utterance's Unicode scalars; the score is in
// [0, 1]; the utterance is reported back unchanged. Set MEDIAPARSE_FUZZ_NO_CHECKS=1 to look for crashes only.
import Foundation
import MediaParse

/// The locale fuzzed: `MEDIAPARSE_FUZZ_LOCALE` (Fuzz/run.sh sets it for `parse:de-DE` and the like), else en-US.
let locale = ProcessInfo.processInfo.environment["MEDIAPARSE_FUZZ_LOCALE"] ?? "en-US"

/// Built once per process: the locale's grammar, an app name, and a small user and global vocabulary, so
/// that vocabulary matching runs on every input too.
let parser: MediaParser = {
    do {
        let p = try MediaParser(locale: locale, appNames: ["ControlAudio", "Control Audio"], cacheCompiledGrammar: true)
        p.vocabulary.setUserVocabulary(UserVocabulary([
            .mediaPlaylistTitle: ["Rainy Sunday Jazz", "Gym Bangers 2024", "Eighties Slow Dance", "70s punk classics"],
            .mediaMusicArtistName: ["The Midnight Owls", "Seven Lions Roar", "Khalid"],
            .mediaAudiobookTitle: ["The Hundred Year Garden"],
            .mediaShowTitle: ["Coffee With Strangers", "Top 20 Tech Talk"],
        ]))
        p.vocabulary.loadGlobal(GlobalVocabulary(items: [
            .init(type: .mediaPlaylistTitle, identifier: "pl-chill-90s",
                  synonyms: [.init(phrase: "90s Chill Mix"), .init(phrase: "nineties chill mix")]),
            .init(type: .mediaShowTitle, identifier: "show-ten-percent", synonyms: [.init(phrase: "Ten Percent Happier")]),
            .init(type: .mediaAudiobookAuthorName, identifier: "au-1", synonyms: [.init(phrase: "Zoë Ångström")]),
        ]))
        return p
    } catch {
        fatalError("cannot load the \(locale) grammar: \(error)")
    }
}()

let checks = ProcessInfo.processInfo.environment["MEDIAPARSE_FUZZ_NO_CHECKS"] == nil

func check(_ condition: Bool, _ message: @autoclosure () -> String, _ result: ParseResult) {
    guard checks, !condition else { return }
    fatalError("invariant broken: \(message())\nresult: \(result.jsonLine())")
}

func verify(_ result: ParseResult, scalars: Int, text: String, top: Bool) {
    if top { check(result.utterance == text, "utterance not reported back unchanged", result) }
    if let score = result.score { check(score >= 0 && score <= 1, "score \(score) outside [0, 1]", result) }
    for (key, range) in result.spans?.ranges ?? [] {
        check(range.count == 2 && 0 <= range[0] && range[0] <= range[1] && range[1] <= scalars,
              "span \(key) \(range) outside the utterance's \(scalars) scalars", result)
    }
    for alternative in result.alternatives ?? [] { verify(alternative, scalars: scalars, text: text, top: false) }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = parser  // load the grammar before the first input, so that start-up is not counted against it
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self)
    let result: ParseResult
    switch size % 4 {
    case 0: result = parser.parse(text)
    case 1: result = parser.parse(text, alternatives: 2)
    case 2: result = parser.parse(text, explain: true)
    default: result = parser.parse(text, alternatives: 5, explain: true)
    }
    let line = result.jsonLine()
    if checks {
        verify(result, scalars: text.unicodeScalars.count, text: text, top: true)
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        check(object != nil, "the JSON line is not a JSON object: \(line)", result)
        check(object?["error"] as? String != "could not encode the result", "the result could not be encoded", result)
    }
    return 0
}
