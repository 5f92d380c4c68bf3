"""ReportLab drawing: cards, sheets, maps, rulebook. Millimetres outside, points only here."""
