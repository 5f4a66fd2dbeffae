// Recordings module
