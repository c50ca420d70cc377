// What the EmbedGrammars plugin generates for the library (EmbeddedGrammars.swift), set here by main.swift
// from the same files: this tool compiles the library's own sources (Library/ links to Sources/MediaParse)
// and so needs no other target, and no plugin, to be built before the grammars are compiled.

/// The grammar files, path relative to Grammars/ and text, sorted by path (as GrammarEmbedder writes them).
nonisolated(unsafe) var embeddedGrammarFiles: [(path: String, text: String)] = []

/// Not used when compiling grammars.
nonisolated(unsafe) var embeddedGrammarSetHash = "0000000000000000"

/// FNV-1a over the library's source files, as GrammarEmbedder computes it: a key of every compiled grammar.
nonisolated(unsafe) var compilerFingerprint: UInt64 = 0
