import Foundation
import HearthCore
import HearthStore

/// The seniors whose medications or day-to-day care a caller may see: a
/// senior sees themself, a caregiver (or admin) the seniors they are linked
/// to. Asked of the permission policy rather than worked out here, so the
/// lists and the single-item routes can never disagree.
struct CareCircle {
    let store: HearthStore

    /// Seniors in the household for whom `actor` may view `resource`, by name.
    func seniors(
        visibleTo actor: PermissionPolicy.Actor, _ resource: (UUID) -> PermissionPolicy.Resource
    ) async throws -> [Person] {
        try await store.people()
            .filter { $0.role == .senior && PermissionPolicy.decide(actor, .view, resource($0.id)) == .allow }
    }

    /// The seniors a list route covers: the one named by `personId` (404 when
    /// the caller may not see them), or everyone the caller may see.
    func seniors(
        named personId: String?, visibleTo actor: PermissionPolicy.Actor, _ resource: (UUID) -> PermissionPolicy.Resource
    ) async throws -> [Person] {
        let visible = try await seniors(visibleTo: actor, resource)
        guard let personId else { return visible }
        guard let id = UUID(text: personId), let senior = visible.first(where: { $0.id == id }) else {
            throw HearthError.notFound(what: "That person")
        }
        return [senior]
    }

    /// The household's time zone, in which doses are planned and days begin.
    func timeZone() async throws -> TimeZone {
        guard let household = try await store.household(), let zone = TimeZone(identifier: household.timeZone) else {
            throw HearthError.notFound(what: "The household")
        }
        return zone
    }
}
