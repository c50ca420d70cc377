/// The kinds of vocabulary an app can give, named as SiriKit's `INVocabularyStringType` names them.
///
/// Each type says which result the parser builds on a hit: the `mediaType` it sets and the field
/// (`mediaName` or `artistName`) that takes the entry's value. `CaseIterable` order is the fixed tie-break
/// between types when everything else is equal.
public enum VocabularyType: String, Sendable, Hashable, CaseIterable, Codable {
    case mediaPlaylistTitle, mediaMusicArtistName, mediaAudiobookTitle, mediaAudiobookAuthorName, mediaShowTitle

    /// The `INMediaItemType` case name a hit sets: `playlist`, `artist`, `audioBook`, `podcastShow`.
    public var mediaType: String {
        switch self {
        case .mediaPlaylistTitle: return "playlist"
        case .mediaMusicArtistName: return "artist"
        case .mediaAudiobookTitle, .mediaAudiobookAuthorName: return "audioBook"
        case .mediaShowTitle: return "podcastShow"
        }
    }

    /// The result field that takes the entry's value: `mediaName`, or `artistName` for artists and authors.
    public var field: Field {
        switch self {
        case .mediaMusicArtistName, .mediaAudiobookAuthorName: return .artistName
        case .mediaPlaylistTitle, .mediaAudiobookTitle, .mediaShowTitle: return .mediaName
        }
    }

    /// The parameter of `AppIntentVocabulary.plist`'s `ParameterNames` after the intent name
    /// (`INPlayMediaIntent.playlistTitle` → `playlistTitle`).
    public var parameterName: String {
        switch self {
        case .mediaPlaylistTitle: return "playlistTitle"
        case .mediaMusicArtistName: return "musicArtistName"
        case .mediaAudiobookTitle: return "audiobookTitle"
        case .mediaAudiobookAuthorName: return "audiobookAuthorName"
        case .mediaShowTitle: return "showTitle"
        }
    }

    /// The type of a global `ParameterNames` entry: `INPlayMediaIntent.playlistTitle`, or the same parameter
    /// after any other intent name (`INSearchForMediaIntent.showTitle`), or the parameter alone. Nil when the
    /// parameter is none of the five.
    public init?(parameterName: String) {
        let parameter = parameterName.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard let type = Self.allCases.first(where: { $0.parameterName == parameter }) else { return nil }
        self = type
    }
}

/// Where a vocabulary entry comes from. User entries rank above global ones.
public enum VocabularySource: String, Sendable, Hashable, Codable {
    /// The user's own vocabulary (`INVocabulary`, `--user-vocabulary`): playlist names, artists they follow …
    case user
    /// The app's vocabulary for every user (`AppIntentVocabulary.plist`, `--global-vocabulary`).
    case global
}

/// One spoken phrase the parser knows as a name, from the user's or the app's vocabulary.
///
/// A user string is one entry; a global item gives one entry per synonym (`VocabularyItemPhrase`), all
/// with the item's `VocabularyItemIdentifier` as their `value`.
public struct VocabularyEntry: Sendable, Hashable {
    public let source: VocabularySource
    public let type: VocabularyType
    /// The phrase as written in the vocabulary (a user string, or a global synonym's `VocabularyItemPhrase`).
    public let phrase: String
    /// What a hit reports in `mediaName` / `artistName`: the user string itself, or the global item's
    /// `VocabularyItemIdentifier`, as SiriKit does.
    public let value: String
    /// The global item's `VocabularyItemIdentifier`; nil for user entries.
    public let identifier: String?
    /// The global synonym's `VocabularyItemPronunciation`, kept for callers; matching does not use it.
    public let pronunciation: String?
    /// The position in its set: for a user entry, its index in the ordered set of its type (0 = most
    /// important; removing an earlier string moves it up); for a global entry, the load order of its item.
    public internal(set) var index: Int

    /// Lower is more important. A user entry's priority is its `index`; every global entry comes after every
    /// user entry (`globalPriorityBase + index`), in the order the global items were loaded.
    public var priority: Int { source == .user ? index : Self.globalPriorityBase + index }

    /// Where global priorities start: above any user set's size.
    public static let globalPriorityBase = 1 << 40

    /// The `INMediaItemType` case name a hit sets.
    public var mediaType: String { type.mediaType }
    /// The result field a hit fills.
    public var field: Field { type.field }

    public init(source: VocabularySource, type: VocabularyType, phrase: String, value: String,
                identifier: String? = nil, pronunciation: String? = nil, index: Int) {
        self.source = source
        self.type = type
        self.phrase = phrase
        self.value = value
        self.identifier = identifier
        self.pronunciation = pronunciation
        self.index = index
    }

    /// A user string of `type` at `index` of its ordered set.
    public static func user(_ phrase: String, type: VocabularyType, index: Int) -> VocabularyEntry {
        VocabularyEntry(source: .user, type: type, phrase: phrase, value: phrase, index: index)
    }

    /// How the result's `vocabulary` array reports this entry.
    var use: VocabularyUse {
        VocabularyUse(source: source.rawValue, type: type.rawValue, phrase: phrase, identifier: identifier,
                      field: field.rawValue)
    }
}
