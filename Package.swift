// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MediaParse",
    platforms: [.macOS(.v13)],
    products: [
        // The parser, and its built-in grammars compiled when the package builds (resources of their own target).
        .library(name: "MediaParse", targets: ["MediaParse", "MediaParseGrammars"]),
        // Resolve against the app's own catalogue (SQLite through GRDB): a product of its own, so that an app
        // that only parses builds neither SQLite nor GRDB.
        .library(name: "MediaParseCatalog", targets: ["MediaParseCatalog"]),
        .executable(name: "mediaparse", targets: ["mediaparse"]),
    ],
    traits: [
        .trait(name: "Catalog", description: "The MediaParseCatalog library: a catalogue in SQLite (through GRDB) and the resolver."),
        .trait(name: "Tool", description: "The mediaparse command-line tool and its HTTP server (swift-argument-parser, Hummingbird).",
               enabledTraits: ["Catalog"]),
        .default(enabledTraits: ["Tool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // `mediaparse serve` only (the CLI target): the library depends on none of these.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    ],
    targets: [
        // The only place that includes ICU's headers: Foundation on Linux carries its own ICU and the
        // two sets of declarations clash, so Swift sees ICU only through this plain-C interface.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("icudata")]
        ),
        // Turns Grammars/ into Swift source at build time, so the grammars travel inside the binary.
        .executableTarget(name: "GrammarEmbedder", path: "Sources/GrammarEmbedder"),
        .plugin(
            name: "EmbedGrammars",
            capability: .buildTool(),
            dependencies: ["GrammarEmbedder"]
        ),
        .target(
            name: "MediaParse",
            dependencies: ["CICU", .product(name: "Yams", package: "Yams")],
            plugins: ["EmbedGrammars"]
        ),
        // Compiles every built-in locale's grammar at build time into resources of MediaParseGrammars, which
        // a parser maps at start. The compiler is the library itself: the tool compiles the library's sources
        // (`Library` links to Sources/MediaParse) rather than depending on the target, because SwiftPM builds
        // a plugin's tool before it runs the plugins of the tool's dependencies (EmbedGrammars).
        .executableTarget(
            name: "GrammarPrecompiler",
            dependencies: ["CICU", .product(name: "Yams", package: "Yams")],
            exclude: ["Library/MediaParse.docc"]
        ),
        .plugin(
            name: "CompileGrammars",
            capability: .buildTool(),
            dependencies: ["GrammarPrecompiler"]
        ),
        .target(name: "MediaParseGrammars", plugins: ["CompileGrammars"]),
        // The resolution stage: a catalogue kept in SQLite, and the resolver that ranks its items for a request.
        .target(
            name: "MediaParseCatalog",
            dependencies: ["MediaParse", .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Catalog"]))]
        ),
        // Tooling beside the embeddable library: corpus files, the corpus tester and its reports, importers
        // of labelled sets, the benchmark. The CLI uses it; an app embedding the parser does not need it.
        .target(
            name: "MediaParseTools",
            dependencies: ["MediaParse", "MediaParseCatalog", .product(name: "Yams", package: "Yams")]
        ),
        .executableTarget(
            name: "mediaparse",
            dependencies: ["MediaParse", "MediaParseGrammars", "MediaParseTools", "MediaParseCatalog", .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tool"])),
                           .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tool"])), .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Tool"])),
                           .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Tool"])), .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Tool"]))]
        ),
        .testTarget(name: "MediaParseTests", dependencies: ["MediaParse", "MediaParseGrammars", "MediaParseTools", "MediaParseCatalog",
                                                     .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Catalog"]))]),
    ]
)
