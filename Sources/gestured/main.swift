print("gestured")
