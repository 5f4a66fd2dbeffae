// GestureConfig module
