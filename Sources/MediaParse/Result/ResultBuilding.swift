/// Where each field's value goes in a result: the one place besides the stored property that knows a field
/// (its name, kind, allowed values and span key are in `Field`). Adding a field to the contract is a case of
/// `Field`, a property of the result object that holds it, and a line here.
enum FieldPlace {
    case search(WritableKeyPath<MediaSearch, String?>)
    case searchList(WritableKeyPath<MediaSearch, [String]?>)
    case searchDate(WritableKeyPath<MediaSearch, DateRange?>)
    case text(WritableKeyPath<ParseResult, String?>)
    case number(WritableKeyPath<ParseResult, Double?>)
    case flag(WritableKeyPath<ParseResult, Bool?>)
    case destinationText(WritableKeyPath<MediaDestination, String?>)
    case destinationFlag(WritableKeyPath<MediaDestination, Bool?>)
    case target(WritableKeyPath<Target, String?>)
    /// A field of a closed set of values (`ClosedValues.swift`), set from its JSON string.
    case searchClosed((inout MediaSearch, String) -> Void)
    case closed((inout ParseResult, String) -> Void)
}

extension Field {
    var place: FieldPlace {
        switch self {
        case .mediaType: return .searchClosed { $0.mediaType = MediaItemType(rawValue: $1) }
        case .mediaName: return .search(\.mediaName)
        case .artistName: return .search(\.artistName)
        case .albumName: return .search(\.albumName)
        case .genreNames: return .searchList(\.genreNames)
        case .moodNames: return .searchList(\.moodNames)
        case .releaseDate: return .searchDate(\.releaseDate)
        case .sortOrder: return .searchClosed { $0.sortOrder = MediaSortOrder(rawValue: $1) }
        case .reference: return .searchClosed { $0.reference = MediaReference(rawValue: $1) }
        case .mediaIdentifier: return .search(\.mediaIdentifier)
        case .playShuffled: return .flag(\.playShuffled)
        case .resumePlayback: return .flag(\.resumePlayback)
        case .playbackRepeatMode: return .closed { $0.playbackRepeatMode = PlaybackRepeatMode(rawValue: $1) }
        case .playbackQueueLocation: return .closed { $0.playbackQueueLocation = PlaybackQueueLocation(rawValue: $1) }
        case .playbackSpeed: return .number(\.playbackSpeed)
        case .playlistName: return .destinationText(\.playlistName)
        case .library: return .destinationFlag(\.library)
        case .affinityType: return .closed { $0.affinityType = MediaAffinityType(rawValue: $1) }
        case .appName: return .text(\.appName)
        case .command: return .closed { $0.command = RemoteCommand(rawValue: $1) }
        case .interval: return .number(\.interval)
        case .repeatMode: return .closed { $0.repeatMode = PlaybackRepeatMode(rawValue: $1) }
        case .shuffle: return .flag(\.shuffle)
        case .playbackRate: return .number(\.playbackRate)
        case .property: return .closed { $0.property = NowPlayingProperty(rawValue: $1) }
        case .volume: return .number(\.volume)
        case .volumeChange: return .closed { $0.volumeChange = VolumeChange(rawValue: $1) }
        case .volumeStep: return .number(\.volumeStep)
        case .area: return .target(\.area)
        case .device: return .target(\.device)
        }
    }
}

extension ParseResult {
    /// Fills the result's fields from a reading's values (`lists` for the fields that collect several).
    mutating func fill(values: [Field: SlotValue], lists: [Field: [String]], intent: IntentName) {
        var search = MediaSearch()
        var destination = MediaDestination()
        var target = Target()
        for (field, value) in values {
            switch (field.place, value as SlotValue?) {
            case let (.search(path), .text(s)?): search[keyPath: path] = s
            case (.searchList, _): break
            case let (.searchDate(path), .dateRange(start, end)?): search[keyPath: path] = DateRange(start: start, end: end)
            case let (.text(path), .text(s)?): self[keyPath: path] = s
            case let (.number(path), .number(n)?): self[keyPath: path] = n
            case let (.flag(path), .flag(b)?): self[keyPath: path] = b
            case let (.destinationText(path), .text(s)?): destination[keyPath: path] = s
            case let (.destinationFlag(path), .flag(b)?): destination[keyPath: path] = b
            case let (.target(path), .text(s)?): target[keyPath: path] = s
            case let (.searchClosed(set), .text(s)?): set(&search, s)
            case let (.closed(set), .text(s)?): set(&self, s)
            default: break
            }
        }
        for (field, names) in lists {
            if case let .searchList(path) = field.place { search[keyPath: path] = names }
        }
        // "music" says only "something musical": it stays the media type when nothing more specific was
        // said ("play music", "play my music"), and gives way to an artist, a genre, a date, a name ...
        // ("play music by Khalid" searches the artist, as "play Khalid" does).
        if search.mediaType == .music,
           search.mediaName != nil || search.artistName != nil || search.albumName != nil || search.genreNames != nil
            || search.moodNames != nil || search.releaseDate != nil || search.sortOrder != nil {
            search.mediaType = nil
        }
        if intent.hasMediaSearch, !search.isEmpty { mediaSearch = search }
        if destination != MediaDestination() { mediaDestination = destination }
        if target != Target() { self.target = target }
    }
}
