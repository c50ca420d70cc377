// libFuzzer target: the grammar loader and compiler, through `MediaParser(locale:catalog:)`.
//
// The input is the text of one grammar file in an otherwise empty `GrammarCatalog`: folder `en`, file
// `fuzz.yaml`, or `locale.yaml` when the text starts with `#locale` (so that the locale settings, the
// `numbers:` block and `icu_locale` are fuzzed too; the text is the whole input either way). Bytes that are
// not UTF-8 are decoded lossily, as no grammar file can be anything but text. Inputs over 4 KB are skipped.
//
// Errors (`GrammarError`, `UnsupportedLocaleError`, ICU errors) are the expected outcome and are rendered as
// the CLI would print them; crashes, hangs and leaks are findings. A grammar that loads is then asked a few
// fixed utterances, so that the matcher runs over automata nobody wrote by hand.
//
// `MediaParser.init` opens its own ICU session for the locale each time (there is no public way to hand it
// one): a word breaker and two spell-out formatters, whose rules ICU parses anew each time even though it
// caches the data files. That is about a quarter of this target's time, accepted so that the real
// initialiser is what gets fuzzed.
import Foundation
import MediaParse

let maxInput = 4096

let utterances = [
    "play some jazz",
    "play the newest episode of Stuff You Should Know in ControlAudio at double speed",
    "put on some '70s punk classics by Khalid's band",
    "skip ahead thirty seconds",
    "a b c d e f g h i j k l m n o p",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= maxInput else { return -1 }  // -1: do not add to the corpus
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var catalog = GrammarCatalog()
    catalog.add(folder: "en", path: text.hasPrefix("#locale") ? "locale.yaml" : "fuzz.yaml", text: text)
    do {
        let parser = try MediaParser(locale: "en", appNames: ["ControlAudio"], catalog: catalog, cacheCompiledGrammar: false)
        _ = parser.grammarSize
        for u in utterances {
            _ = parser.parse(u, alternatives: 2, explain: true).jsonLine()
        }
    } catch {
        _ = "\(error)".count
    }
    return 0
}
