# SPDX-License-Identifier: Apache-2.0
# Fails if ui/session includes the folders that build on it (docs/architecture.md, "The desktop
# app"): the Session and its values must not depend on the background jobs, the pages, the
# dialogs, the widgets or the main window (that was the ui/session <-> ui/tasks include cycle).
file(GLOB_RECURSE _files ${UI_DIR}/session/*.h ${UI_DIR}/session/*.cpp)
set(_bad "")
foreach(_f IN LISTS _files)
  file(STRINGS ${_f} _hits
       REGEX "#include[ \t]*\"ui/(tasks|pages|dialogs|widgets|project|app_modes)/|#include[ \t]*\"ui/main_window")
  if(_hits)
    list(APPEND _bad "${_f}: ${_hits}")
  endif()
endforeach()
if(_bad)
  message(FATAL_ERROR "ui/session must not include the layers above it:\n${_bad}")
endif()
list(LENGTH _files _n)
if(_n EQUAL 0)
  message(FATAL_ERROR "no file found under ${UI_DIR}/session")
endif()
message(STATUS "ui/session includes no layer above it (${_n} files checked)")
