@testable import CommandLineParsing
import Testing
