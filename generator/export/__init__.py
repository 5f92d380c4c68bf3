"""Exports derived from the PDFs: PNG per card face, Tabletop Simulator deck sheets."""
