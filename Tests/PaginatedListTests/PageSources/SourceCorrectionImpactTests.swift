import PaginatedList
import Testing

@Suite("SourceCorrection.impact")
struct SourceCorrectionImpactTests {
    typealias Correction = PaginatedListDiagnostic.SourceCorrection

    @Test(arguments: [
        Correction.duplicatesDropped(count: 2), .resynchronised(by: 3), .missingItemsSkipped(count: 1), .feedOutpaced,
    ])
    func correctionsThatShowEveryItemInTheFeedsOrderLoseNothing(correction: Correction) {
        #expect(correction.impact == .nothingLost)
    }

    @Test func itemsShownBelowItemsTheyNowRankUnderLeaveTheOrderUnguaranteed() {
        #expect(Correction.shownOutOfOrder(count: 1).impact == .orderNotGuaranteed)
    }

    @Test(arguments: [Correction.itemsAboveSkipped(count: 4), .resynchronisationFailed])
    func correctionsThatMaySkipItemsMayHaveLostThem(correction: Correction) {
        #expect(correction.impact == .possiblyLost)
    }

    @Test func impactsAreOrderedFromHarmlessToMostSevere() {
        #expect(Correction.Impact.nothingLost < .orderNotGuaranteed)
        #expect(Correction.Impact.orderNotGuaranteed < .possiblyLost)
    }
}
