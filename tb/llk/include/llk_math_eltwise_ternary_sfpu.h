// Stand-in of tt-llk's llk_math_eltwise_ternary_sfpu.h for the `sfpu llk` front end: see llk_stand_in.h.
#pragma once
#include "llk_stand_in.h"
