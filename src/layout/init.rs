//! `framecheck init`: calibrate a framing and propose a profile.
