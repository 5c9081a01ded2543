/// Every kind of thing the change log carries. The store writes it with each
/// change; every subscriber (live visibility, sync, replanning, discovery,
/// webhooks, the paired-device cache, HearthKit) switches over it, so a new
/// kind of thing is added here first and the compiler points at each place
/// that must decide about it (Docs/architecture.md, "Adding a kind of thing").
public enum ChangeEntity: String, Sendable, Hashable, Codable, CaseIterable {
    /// The household's name, time zone, reminder and discovery settings.
    case household
    case person
    /// Who looks after whom.
    case careLink
    case device
    case pairingCode
    case note
    case medication
    case schedule
    case dose
    case alert
    /// A credential for an alert app on a person's phone (never its password).
    case alertApp
    /// A person's panel of tiles (its id is the person's).
    case panel
    /// A person's text size, theme, language and speaking rate (its id is the person's).
    case displaySettings
    /// A person's best score in one game (its id is "<person>:<game>").
    case gameScore
    /// How a person is told away from home: texts, push (its id is the
    /// person's; never her push topic, which is a secret).
    case awayChoice
}

extension Change {
    /// Whether it changes who looks after whom: a care link made or undone
    /// (not a caregiver's own name for her senior, an update of the link).
    public var changesCareLinks: Bool { entity == .careLink && op != .update }
}

extension ChangeEntity {
    /// Whether it shapes the household — who is in it, who looks after whom,
    /// which devices and apps act for them, its settings — and so is kept in
    /// the household's audit, which the change log's compaction never folds.
    public var isHouseholdShape: Bool {
        switch self {
        case .household, .person, .careLink, .device, .pairingCode, .alertApp, .awayChoice: true
        case .note, .medication, .schedule, .dose, .alert, .panel, .displaySettings, .gameScore: false
        }
    }
}
