// Stand-in of tt-llk's ckernel_template.h for the `sfpu llk` front end: see llk_stand_in.h.
#pragma once
#include "llk_stand_in.h"
