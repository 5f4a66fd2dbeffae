// EvdevInput module
