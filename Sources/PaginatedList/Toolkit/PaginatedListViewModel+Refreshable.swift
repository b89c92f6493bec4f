/// `refresh()` (a `.replace` refresh that keeps the list visible until the new first page lands) makes
/// every view model a `Refreshable`, so a `RefresherGroup` refreshes many lists without blanking any.
extension PaginatedListViewModel: Refreshable {}
