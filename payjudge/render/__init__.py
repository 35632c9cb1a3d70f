"""Pictures of the board: geometry, the pure SVG renderer, the schematic layout, PNG."""
