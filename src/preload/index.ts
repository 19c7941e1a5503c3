// Preload: a narrow typed bridge (filled in by the app API).
export {};
