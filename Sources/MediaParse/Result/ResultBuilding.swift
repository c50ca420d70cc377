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
}

extension Field {
    var place: FieldPlace {
        switch self {
        case .mediaType: return .search(\.mediaType)
        case .mediaName: return .search(\.mediaName)
        case .artistName: return .search(\.artistName)
        case .albumName: return .search(\.albumName)
        case .genreNames: return .searchList(\.genreNames)
        case .moodNames: return .searchList(\.moodNames)
        case .releaseDate: return .searchDate(\.releaseDate)
        case .sortOrder: return .search(\.sortOrder)
        case .reference: return .search(\.reference)
        case .mediaIdentifier: return .search(\.mediaIdentifier)
        case .playShuffled: return .flag(\.playShuffled)
        case .resumePlayback: return .flag(\.resumePlayback)
        case .playbackRepeatMode: return .text(\.playbackRepeatMode)
        case .playbackQueueLocation: return .text(\.playbackQueueLocation)
        case .playbackSpeed: return .number(\.playbackSpeed)
        case .playlistName: return .destinationText(\.playlistName)
        case .library: return .destinationFlag(\.library)
        case .affinityType: return .text(\.affinityType)
        case .appName: return .text(\.appName)
        case .command: return .text(\.command)
        case .interval: return .number(\.interval)
        case .repeatMode: return .text(\.repeatMode)
        case .shuffle: return .flag(\.shuffle)
        case .playbackRate: return .number(\.playbackRate)
        case .property: return .text(\.property)
        case .volume: return .number(\.volume)
        case .volumeChange: return .text(\.volumeChange)
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
            default: break
            }
        }
        for (field, names) in lists {
            if case let .searchList(path) = field.place { search[keyPath: path] = names }
        }
        // "music" says only "something musical": it stays the media type when nothing more specific was
        // said ("play music", "play my music"), and gives way to an artist, a genre, a date, a name ...
        // ("play music by Khalid" searches the artist, as "play Khalid" does).
        if search.mediaType == "music",
           search.mediaName != nil || search.artistName != nil || search.albumName != nil || search.genreNames != nil
            || search.moodNames != nil || search.releaseDate != nil || search.sortOrder != nil {
            search.mediaType = nil
        }
        if intent.hasMediaSearch, !search.isEmpty { mediaSearch = search }
        if destination != MediaDestination() { mediaDestination = destination }
        if target != Target() { self.target = target }
    }
}
