// The calendar types HearthKit's API speaks in (`TodayDose.date`,
// `observeToday(on:)`), so an app need not import HearthCore itself.
@_exported import struct HearthCore.LocalDate
@_exported import struct HearthCore.LocalTime
