# SPDX-License-Identifier: GPL-2.0-or-later
# PSTAT_CHECK_CFLAG(FLAG, VARIABLE): append FLAG to VARIABLE when $CC
# compiles an empty program with it and -Werror, so that a flag one
# compiler lacks (clang and -fno-merge-constants) is left out, not
# warned about at every file.
AC_DEFUN([PSTAT_CHECK_CFLAG],
[pstat_flag_save_CFLAGS=$CFLAGS
CFLAGS="$CFLAGS -Werror $1"
AC_MSG_CHECKING([whether $CC accepts $1])
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
	[AC_MSG_RESULT([yes]); $2="$$2 $1"],
	[AC_MSG_RESULT([no])])
CFLAGS=$pstat_flag_save_CFLAGS])
