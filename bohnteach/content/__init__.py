"""Teaching material as data: scene files and their loader, Mach-du cases, lesson facts."""
