// Gaps of SIMDe 0.7.4 (Debian 12) filled for the -emu builds only. Each entry names the
// missing or broken alias; DESIGN.md lists them. Grows with the AVX-512/VNNI issues.
#pragma once
