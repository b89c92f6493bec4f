import Signals
print("benchmarks: to do")
