// Placeholder so the module builds; delete when the first real file lands.
